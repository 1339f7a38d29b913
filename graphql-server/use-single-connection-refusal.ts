/**
 * graphql-sse's single connection mode is not served (docs/edge.md#shutdown-of-streams): its client first reserves a
 * stream with `PUT /graphql`, which yoga would answer with a bare "only GET and POST". This answers that PUT with a
 * 405 that names the mode and the one to use instead, so a client library's error tells its developer what to change.
 * The distinct connections mode (`POST /graphql` with `accept: text/event-stream`) is served, and ended cleanly on
 * SIGTERM; one reserved stream per client would need a token store shared by every instance, for no reader here.
 */
import type { Plugin } from 'graphql-yoga';

export const SINGLE_CONNECTION_REFUSED =
  "graphql-sse's single connection mode is not served here: use its distinct connections mode (singleConnection: false), " +
  'that is POST /graphql with accept: text/event-stream, one stream per subscription.';

export const useSingleConnectionRefusal: Plugin = {
  onRequest({ request, endResponse, fetchAPI }) {
    if (request.method !== 'PUT') return;
    const body = JSON.stringify({ errors: [{ message: SINGLE_CONNECTION_REFUSED, extensions: { code: 'METHOD_NOT_ALLOWED' } }] });
    endResponse(new fetchAPI.Response(body, { status: 405, headers: { allow: 'GET, POST, OPTIONS', 'content-type': 'application/json; charset=utf-8' } }));
  },
};
