/**
 * No cross-site writes through /graphql (docs/edge.md#no-cross-site-writes). A browser sends a form-urlencoded,
 * multipart or text/plain POST to any site without a preflight, so a page on another site could make a visitor's
 * browser run `createOrder` here (issue 15 saw both forms do it). Such a request is refused before yoga parses it,
 * 415, whatever its operation.
 *
 * This is @graphql-yoga/plugin-csrf-prevention's rule, narrowed to what this API needs: that plugin also refuses
 * every GET without a custom header (which would break EventSource subscriptions and plain GET queries, both reads)
 * and answers 403, where the decision is 415 and a request with a header of the plugin's list is still a simple
 * request only if the browser sent it without one. Multipart is refused even in the shape of the GraphQL multipart
 * request spec: the schema has no Upload scalar, so no multipart request is ever needed, and a form can build that
 * shape as easily as any other.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { mediaTypeOf, SIMPLE_REQUEST_TYPES } from '../src/kernel/media-type.ts';

export const useCsrfPrevention: Plugin = {
  onRequestParse({ request }) {
    if (request.method !== 'POST') return; // a GET is a read (yoga refuses a mutation over GET)
    const type = mediaTypeOf(request.headers.get('content-type'));
    if (!SIMPLE_REQUEST_TYPES.includes(type)) return;
    throw createGraphQLError(`A GraphQL request sent as ${type} is not accepted: send it as JSON with content-type: application/json.`, {
      extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', http: { status: 415 } },
    });
  },
};
