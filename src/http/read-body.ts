/** Reads a node:http request body as text, refusing (and draining) anything past the limit. Both doors use it. */
import type { IncomingMessage } from 'node:http';
import { rawHeader } from './raw-headers.ts';

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
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
    this.req.on('error', reject);
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
    this.resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  }
}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(rawHeader(req, 'content-length') ?? 0) > maxBytes) {
    req.resume();
    return Promise.reject(new PayloadTooLargeError());
  }
  return new BodyReader(req, maxBytes).done;
}
