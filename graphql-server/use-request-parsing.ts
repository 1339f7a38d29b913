/**
 * A request yoga cannot read gets a 4xx and a message that says why, never a 500 or an echo of what was sent
 * (docs/graphql.md#status-codes):
 *
 *  - a GET whose `variables` or `extensions` is not JSON: yoga's URL parser lets JSON.parse's SyntaxError escape,
 *    and it was answered 500 "Unexpected error." and logged as a failure of ours;
 *  - a POST body that is not JSON: yoga answers 400 and copies JSON.parse's message into
 *    `extensions.originalError`, which on Node quotes the body, payToken or card number included;
 *  - a POST with no content type at all: yoga answers 415 with an empty body;
 *  - no query and no persisted query's hash: yoga answers 400, but 200 to a client that asks for application/json;
 *  - a variable holding half of a surrogate pair on its own, no Unicode text (src/kernel/unicode-text.ts).
 *
 * Each is 400 (415) under both media types: none of them is a GraphQL request at all, which is where
 * application/json's rule of 200 for every answer stops (GraphQL over HTTP; graphql-http's audit 423L allows 400).
 *
 * Registered after yoga's own parsers (yoga puts them before every plugin), so `requestParser` is the one that matched.
 */
import { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { forbiddenCharacterAt, forbiddenCharacterMessage } from '../src/kernel/unicode-text.ts';

const badRequest = (message: string) => createGraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/** A parser may answer with a Response of its own (yoga's fetch API's class, not necessarily the global one). */
const isResponse = (value: unknown): value is Response => typeof (value as Response | null)?.arrayBuffer === 'function';

export const useRequestParsing: Plugin = {
  onRequestParse({ request, requestParser, setRequestParser }) {
    if (!requestParser) {
      if (request.method !== 'POST') return;
      throw createGraphQLError('A GraphQL request sent by POST needs content-type: application/json.', {
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', http: { status: 415 } },
      });
    }
    setRequestParser(async (req) => {
      let params: Awaited<ReturnType<typeof requestParser>>;
      try {
        params = await requestParser(req);
      } catch (error) {
        if (error instanceof SyntaxError) throw badRequest('The variables or extensions parameter of the URL is not valid JSON.');
        // The message alone ("POST body sent invalid JSON."): the original quotes the body.
        if (error instanceof GraphQLError && error.extensions['originalError'] !== undefined) throw badRequest(error.message);
        throw error;
      }
      if (isResponse(params) || Array.isArray(params)) return params;
      if (params.query == null && params.extensions?.['persistedQuery'] == null) throw badRequest('Must provide query string.');
      const broken = params.variables ? forbiddenCharacterAt(params.variables, 'variables') : null;
      if (broken !== null) throw badRequest(forbiddenCharacterMessage(broken.at, broken.character));
      return params;
    });
  },
};
