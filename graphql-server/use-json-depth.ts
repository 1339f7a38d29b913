/**
 * The JSON depth limit on /graphql (docs/edge.md#bounds): variables nested deeper than the limit (counting from the
 * request body, where they sit at level 2) are a 400 before parsing or execution, never a 500 from a recursive walk
 * of them. yoga's `onParams` sees the variables of every way in: a JSON or multipart POST, a GET's query string,
 * SSE. The fast JSON path checks the raw body itself (fast-path.ts) and leaves such a body to this plugin.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { JSON_TOO_DEEP_MESSAGE, jsonValueTooDeep, MAX_JSON_DEPTH } from '../src/kernel/json-depth.ts';

export const useJsonDepthLimit: Plugin = {
  onParams({ params }) {
    if (jsonValueTooDeep(params.variables, MAX_JSON_DEPTH - 1)) {
      throw createGraphQLError(JSON_TOO_DEEP_MESSAGE, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
    }
  },
};
