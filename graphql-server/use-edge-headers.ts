/**
 * The headers yoga's answers carry at the edge (docs/edge.md#cors, docs/edge.md#page-headers): CORS from the one
 * policy every door shares (src/kernel/cors.ts), and GraphiQL's page headers, and its page gzipped for a browser
 * that accepts it (graphiql-page.ts).
 *
 * In place of yoga's own `cors` option (switched off in yoga-server.ts): yoga's useCORS cannot answer a literal
 * `Access-Control-Allow-Origin: *` — with any origin allowed it echoes the request's origin and adds
 * `Access-Control-Allow-Credentials: true`, exactly the answer issue 15 found — and it would be a second
 * implementation for the fast JSON path (fast-path.ts) to keep equal. This plugin and that path call the same
 * `CorsPolicy`, so /graphql answers one request the same way on either path.
 */
import type { Plugin } from 'graphql-yoga';
import type { CorsPolicy } from '../src/kernel/cors.ts';
import { acceptsGzip, graphiqlHeaders, gzippedGraphiQL } from './graphiql-page.ts';

/**
 * What /graphql accepts: GET (queries, GraphiQL, SSE), POST, and PUT and DELETE of graphql-sse's single connection
 * mode (single-connection-mode.ts); OPTIONS is added by the policy.
 */
const GRAPHQL_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

export function useEdgeHeaders(cors: CorsPolicy): Plugin {
  return {
    onRequest({ request, fetchAPI, endResponse }) {
      // A preflight (or any OPTIONS): 204 with the methods and headers a page may use, for an allowed origin.
      if (request.method === 'OPTIONS') {
        endResponse(new fetchAPI.Response(null, { status: 204, headers: cors.preflight(request.headers.get('origin'), GRAPHQL_METHODS, request.headers.get('access-control-request-headers')) }));
      }
    },
    onResponse({ request, response, fetchAPI, setResponse }) {
      if (request.method === 'OPTIONS') return;
      const headers = cors.headers(request.headers.get('origin'));
      if (headers) for (const name in headers) response.headers.set(name, headers[name]!);
      // The only HTML yoga answers is GraphiQL.
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        const page = graphiqlHeaders();
        for (const name in page) response.headers.set(name, page[name]!);
        response.headers.append('vary', 'Accept-Encoding');
        const gzipped = acceptsGzip(request.headers.get('accept-encoding')) ? gzippedGraphiQL() : null;
        if (gzipped) {
          return gzipped.then((body) => {
            const headers = new fetchAPI.Headers(response.headers);
            headers.set('content-encoding', 'gzip');
            headers.set('content-length', String(body.byteLength));
            setResponse(new fetchAPI.Response(body, { status: response.status, headers }));
          });
        }
      }
      return undefined;
    },
  };
}
