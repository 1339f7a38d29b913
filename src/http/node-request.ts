/**
 * What both doors read of a node:http request: a header, and the body as text (or as bytes, where binary content
 * comes), refusing (and draining) anything past the limit.
 */
import type { IncomingMessage } from 'node:http';

/**
 * The first value of header `name` (lower case), or undefined. Read without touching `req.headers`: node:http
 * builds that object lazily, and building it costs about a fifth of a small request's whole budget; `rawHeaders`
 * is the parser's own array, already there.
 */
export function rawHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
}

/**
 * The client closed its connection before its whole request arrived (a phone leaving the venue's Wi-Fi, a slow
 * client cut off by REQUEST_TIMEOUT_SECONDS). Not a failure of ours: it was logged as an unexpected error and
 * counted as a 500, so every dropped phone could page an operator. Answered CLIENT_CLOSED_REQUEST, which nobody
 * reads but the request line and the metrics.
 */
export class ClientClosedRequest extends Error {
  override readonly name = 'ClientClosedRequest';
  constructor() {
    super('the client closed the connection before its request arrived whole');
  }
}

/** nginx's status for it (499), in request lines and metrics. */
export const CLIENT_CLOSED_REQUEST = 499;

/** node:http's error when the connection closes mid-body ("aborted", ECONNRESET), as ClientClosedRequest. */
export function bodyError(error: Error): Error {
  return error.message === 'aborted' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? new ClientClosedRequest() : error;
}

/**
 * One reader per request, its listeners bound methods: under tsx every per-request closure costs a `__name`
 * redefinition (see rest-compat/node-adapter.ts), and this runs for every POST.
 */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private resolve!: (text: string) => void;
  private reject!: (error: Error) => void;
  readonly done: Promise<string>;

  constructor(
    private readonly req: IncomingMessage,
    private readonly maxBytes: number,
  ) {
    this.done = new Promise<string>(this.start.bind(this));
  }

  private start(resolve: (text: string) => void, reject: (error: Error) => void): void {
    this.resolve = resolve;
    this.reject = reject;
    this.req.on('data', this.onData.bind(this));
    this.req.on('end', this.onEnd.bind(this));
    this.req.on('error', this.onError.bind(this));
  }

  private onError(error: Error): void {
    this.reject(bodyError(error));
  }

  private onData(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.req.removeAllListeners('data');
      this.req.resume(); // drain, so the 413 can still be written
      this.reject(new PayloadTooLargeError());
      return;
    }
    this.chunks.push(chunk);
  }

  private onEnd(): void {
    const { chunks } = this;
    const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    // Decoded as the Fetch API's text() decodes (UTF-8 decode): a leading byte order mark is no part of the text, so
    // a body is the same on a real socket as in memory (RFC 8259 §8.1 lets a JSON parser read past one).
    this.resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  }
}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(rawHeader(req, 'content-length') ?? 0) > maxBytes) {
    req.resume();
    return Promise.reject(new PayloadTooLargeError());
  }
  return new BodyReader(req, maxBytes).done;
}

/**
 * The body as the exact bytes sent, for the few paths that carry binary content (evidence files,
 * docs/notifications.md#evidence-files): text decoding would replace every byte that is not UTF-8. Same limit and
 * draining as readBody; kept apart from it so the text path every JSON request takes stays as it is.
 */
export function readBodyBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer<ArrayBuffer>> {
  if (Number(rawHeader(req, 'content-length') ?? 0) > maxBytes) {
    req.resume();
    return Promise.reject(new PayloadTooLargeError());
  }
  return new Promise<Buffer<ArrayBuffer>>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeListener('data', onData);
        req.resume(); // drain, so the 413 can still be written
        reject(new PayloadTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', (error) => reject(bodyError(error)));
  });
}
