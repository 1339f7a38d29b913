/**
 * The node:http handler of /graphql. First the door's own 413, before a byte of an oversized body is read; then one
 * of two paths, never both: a plain JSON POST is read and offered to the fast JSON path (fast-path.ts), and whatever
 * that path does not take — every other request, and every request while the path is off — goes to yoga's own
 * node:http pipeline (`yoga.handle`), unchanged. A body the handler has read already reaches yoga as `req.body`,
 * the way whatwg-node's node adapter takes a body read by a framework before it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayloadTooLargeError, readBody } from '../src/http/node-request.ts';
import type { FastJsonPath } from './fast-path.ts';
import { RequestHeads, send, tooLarge } from './http-messages.ts';
import type { GraphQLYoga, ServerContext } from './yoga-server.ts';

/** Accept headers that ask for a stream (SSE, incremental delivery): yoga's. */
const STREAMING = /text\/event-stream|multipart\/mixed/iu;

/** A class, not closures: under tsx (esbuild keepNames) every closure made per request costs a `__name` call. */
export class GraphQLNodeHandler {
  constructor(
    private readonly yoga: GraphQLYoga,
    private readonly fastPath: FastJsonPath,
    private readonly maxBodyBytes: number,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void> {
    const heads = new RequestHeads(req.rawHeaders);
    if (Number(heads.contentLength ?? 0) > this.maxBodyBytes) {
      req.resume();
      send(res, tooLarge(heads.accept));
      return;
    }
    if (!this.fastPath.on || !isPlainJsonPost(req.method, heads)) {
      await this.yoga.handle(req, res, serverContext);
      return;
    }
    let raw: string;
    try {
      raw = await readBody(req, this.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      send(res, tooLarge(heads.accept));
      return;
    }
    const answer = this.fastPath.answer(heads, raw, serverContext.clientAddress);
    if (answer) {
      send(res, await answer);
      return;
    }
    (req as IncomingMessage & { body?: string }).body = raw;
    await this.yoga.handle(req, res, serverContext);
  }
}

/**
 * POST with yoga's JSON content type (`application/json`, parameters allowed; yoga also reads
 * `application/graphql+json`, which is left to it), answered as JSON: not a stream.
 */
function isPlainJsonPost(method: string | undefined, heads: RequestHeads): boolean {
  if (method !== 'POST') return false;
  const type = heads.contentType;
  if (type === undefined || !type.startsWith('application/json')) return false;
  if (type.length > 16 && type[16] !== ';' && type[16] !== ',') return false;
  return heads.accept === undefined || !STREAMING.test(heads.accept);
}
