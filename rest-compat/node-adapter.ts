/** node:http ⇄ HttpRequest/HttpResponse. The hot path: no URL object, no Fetch Request, no stream wrappers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, readBodyBytes } from '../src/http/node-request.ts';
import type { HttpRequest, HttpResponse } from './http.ts';

/**
 * A class, not an object literal with closures: under tsx (esbuild `keepNames`) every closure made per request is
 * wrapped in a `__name` call that redefines its `name`, which measurably slows the hot path.
 */
class NodeHttpRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  /** Set by the router and the server (RoutedRequest): declared here so every request object has one shape. */
  route: string | undefined = undefined;
  requestId: string | undefined = undefined;
  #query: URLSearchParams | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly maxBodyBytes: number,
    readonly clientAddress: string,
    private readonly queryIndex = (req.url ?? '/').indexOf('?'),
  ) {
    const raw = req.url ?? '/';
    this.method = req.method ?? 'GET';
    this.path = queryIndex < 0 ? raw : raw.slice(0, queryIndex);
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.queryIndex < 0 ? '' : (this.req.url ?? '').slice(this.queryIndex + 1)));
  }

  /** Lazy: most requests never read a header, and node builds req.headers only when asked. */
  get headers(): Readonly<Record<string, string | undefined>> {
    return this.req.headers as Record<string, string | undefined>;
  }

  /** The Origin header, read from rawHeaders: every answer needs it for CORS (docs/edge.md#cors), most nothing else. */
  get origin(): string | undefined {
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 6 && raw[i]!.toLowerCase() === 'origin') return raw[i + 1];
    return undefined;
  }

  text(): Promise<string> {
    return readBody(this.req, this.maxBodyBytes);
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return readBodyBytes(this.req, this.maxBodyBytes);
  }
}

/** `clientAddress`: the server's reading of the request (docs/edge.md#client-address: TRUST_PROXY). */
export function fromNode(req: IncomingMessage, maxBodyBytes: number, clientAddress: string): HttpRequest & { route: string | undefined; requestId: string | undefined } {
  return new NodeHttpRequest(req, maxBodyBytes, clientAddress);
}

export function toNode(response: HttpResponse, res: ServerResponse, headOnly = false): void {
  const { body, headers } = response;
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(response.status, headers);
  res.end(headOnly ? undefined : body);
}
