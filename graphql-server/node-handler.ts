/**
 * The node:http handler of /graphql. First the door's own 413, before a byte of an oversized body is read; then one
 * of two paths, never both: a plain JSON POST is read and offered to the fast JSON path (fast-path.ts), and whatever
 * that path does not take — every other request, and every request while the path is off — goes to yoga's own
 * node:http pipeline (`yoga.handle`), unchanged. A body the handler has read already reaches yoga as `req.body`,
 * the way whatwg-node's node adapter takes a body read by a framework before it.
 *
 * Every answer carries the request's `x-request-id` (docs/operations.md#request-logs). What yoga runs runs inside the
 * request scope (LOG_REQUEST_SCOPE), but for a stream: it stays open for minutes, and while any request is in the
 * scope every promise of the process is slower (src/kernel/logger.ts). The fast path scopes its mutations itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPromise } from 'graphql-yoga';
import { PayloadTooLargeError, readBody } from '../src/http/node-request.ts';
import { runInRequestScope } from '../src/kernel/logger.ts';
import type { FastJsonPath } from './fast-path.ts';
import type { CorsPolicy } from '../src/kernel/cors.ts';
import { ADDRESS_RETRY_AFTER_SECONDS, tooManyConnections as tooManyConnectionsMessage, type AddressBudget } from '../src/kernel/address-budget.ts';
import { RequestHeads, send, tooLarge, tooManyConnections, type Answer } from './http-messages.ts';
import { GRAPHQL_PATH, type GraphQLYoga, type ServerContext } from './yoga-server.ts';

/** Accept headers that ask for a stream (SSE, incremental delivery): yoga's. */
const STREAMING = /text\/event-stream|multipart\/mixed/iu;

/** A class, not closures: under tsx (esbuild keepNames) every closure made per request costs a `__name` call. */
export class GraphQLNodeHandler {
  /** yoga's handler as a function that always returns a promise, made once (runInRequestScope waits on it). */
  private readonly yogaHandle: (req: IncomingMessage, res: ServerResponse, serverContext: ServerContext) => Promise<void>;

  constructor(
    private readonly yoga: GraphQLYoga,
    private readonly fastPath: FastJsonPath,
    private readonly maxBodyBytes: number,
    /** MAX_CONNECTIONS_PER_ADDRESS: each SSE stream holds a place while it is open (address-budget.ts). */
    private readonly connections: AddressBudget,
    /** CORS_ORIGINS: the door's own refusals carry its headers too, or a page reads only "Failed to fetch". */
    private readonly cors: CorsPolicy,
    /** LOG_REQUEST_SCOPE on (and something is logged). */
    private readonly scoped = false,
  ) {
    this.yogaHandle = async (req, res, serverContext) => {
      await this.yoga.handle(req, res, serverContext);
    };
  }

  async handle(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void> {
    const heads = new RequestHeads(req.rawHeaders);
    const { requestId } = serverContext;
    if (Number(heads.contentLength ?? 0) > this.maxBodyBytes) {
      req.resume();
      send(res, this.refusal(tooLarge(heads.accept), heads, requestId));
      return;
    }
    if (!this.fastPath.on || !isPlainJsonPost(req.method, heads) || isSingleConnectionMode(req.url, heads)) {
      await this.viaYoga(req, res, serverContext, heads);
      return;
    }
    let raw: string;
    try {
      raw = await readBody(req, this.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      send(res, this.refusal(tooLarge(heads.accept), heads, requestId));
      return;
    }
    const answer = this.fastPath.answer(heads, raw, serverContext.clientAddress, requestId);
    if (answer) {
      // Most answers are ready at once (fast-path.ts runs synchronously where it can): no promise hop for them.
      send(res, identified(isPromise(answer) ? await answer : answer, requestId));
      return;
    }
    (req as IncomingMessage & { body?: string }).body = raw;
    await this.viaYoga(req, res, serverContext, heads);
  }

  private viaYoga(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext, heads: RequestHeads): Promise<void> {
    if (heads.accept !== undefined && STREAMING.test(heads.accept)) {
      // A stream, open for minutes: it holds a place of its address's while it is (docs/edge.md#bounds).
      const address = serverContext.clientAddress;
      if (!this.connections.holdWhileOpen(address, res)) {
        req.resume();
        const refused = tooManyConnections(tooManyConnectionsMessage(this.connections.limit), ADDRESS_RETRY_AFTER_SECONDS);
        send(res, this.refusal(refused, heads, serverContext.requestId));
        return Promise.resolve();
      }
    }
    const { requestId } = serverContext;
    if (requestId === undefined) return this.yogaHandle(req, res, serverContext);
    res.setHeader('x-request-id', requestId);
    // graphql-sse's single connection mode: its POST starts an operation that outlives the request.
    const stream = (heads.accept !== undefined && STREAMING.test(heads.accept)) || isSingleConnectionMode(req.url, heads);
    return this.scoped && !stream ? runInRequestScope(requestId, this.yogaHandle, req, res, serverContext) : this.yogaHandle(req, res, serverContext);
  }

  /** The door's own answer (413, 429), identified and with the CORS headers every other answer has. */
  private refusal(answer: Answer, heads: RequestHeads, requestId: string | undefined): Answer {
    if (heads.origin !== undefined) Object.assign(answer.headers, this.cors.headers(heads.origin));
    return identified(answer, requestId);
  }
}

/** The answer with the request's id among its headers (written with them: a separate setHeader costs more). */
function identified(answer: Answer, requestId: string | undefined): Answer {
  if (requestId !== undefined) answer.headers['x-request-id'] = requestId;
  return answer;
}

/** A request with a stream token, in its header or in the query (single-connection-mode.ts): never the fast path's. */
function isSingleConnectionMode(url: string | undefined, heads: RequestHeads): boolean {
  return heads.streamToken || (url !== undefined && url.length > GRAPHQL_PATH.length && url.includes('token='));
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
