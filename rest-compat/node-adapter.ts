/** node:http ⇄ HttpRequest/HttpResponse. The hot path: no URL object, no Fetch Request, no stream wrappers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../src/http/read-body.ts';
import type { HttpRequest, HttpResponse } from './http.ts';

export function fromNode(req: IncomingMessage, maxBodyBytes: number): HttpRequest {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  let query: URLSearchParams | undefined;
  return {
    method: req.method ?? 'GET',
    path: q < 0 ? raw : raw.slice(0, q),
    get query() {
      return (query ??= new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
    },
    headers: req.headers as Record<string, string | undefined>,
    clientAddress: req.socket.remoteAddress ?? 'unknown',
    text: () => readBody(req, maxBodyBytes),
  };
}

export function toNode(response: HttpResponse, res: ServerResponse, headOnly = false): void {
  const { body, headers } = response;
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(response.status, headers);
  res.end(headOnly ? undefined : body);
}
