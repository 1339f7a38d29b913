/** Fetch Request/Response ⇄ HttpRequest/HttpResponse, for the in-memory gateway (no socket). */
import { PayloadTooLargeError, type HttpRequest, type HttpResponse } from './http.ts';

export function fromFetch(request: Request, clientAddress: string, maxBodyBytes: number): HttpRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  // A Fetch Request carries no Host header; its URL names the host it was sent to (src/kernel/media-type.ts reads it).
  headers.host ??= url.host;
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    origin: headers.origin,
    clientAddress,
    async text() {
      const body = await request.text();
      if (Buffer.byteLength(body, 'utf8') > maxBodyBytes) throw new PayloadTooLargeError();
      return body;
    },
    async bytes() {
      const body = new Uint8Array(await request.arrayBuffer());
      if (body.byteLength > maxBodyBytes) throw new PayloadTooLargeError();
      return body;
    },
  };
}

export function toFetch(response: HttpResponse, headOnly = false): Response {
  // A 204 (a preflight) has no body at all: a Fetch Response refuses even an empty one.
  const body = headOnly || response.status === 204 ? null : typeof response.body === 'string' ? response.body : new Uint8Array(response.body);
  return new Response(body, { status: response.status, headers: response.headers });
}
