/**
 * The operations of graphql-sse's single connection mode (single-connection-mode.ts), run on the instance their POST
 * reached. Each runs through yoga's whole pipeline as a request of the distinct connections mode (a POST asking for
 * `text/event-stream`), so it meets every rule any other GraphQL request meets — trusted documents, production
 * hardening, rate limits, CSRF, masking, metrics, the shutdown of streams — with nothing reproduced here. A request
 * that pipeline refuses (a 4xx) is answered as it is; otherwise the POST is answered 202 and each event yoga writes
 * is relayed over the event bus to the stream, as graphql-sse's `{id, payload}`.
 *
 * An operation ends with its own `complete`, a DELETE (`stop`, from any instance), or the stream's end (`closed`).
 * If the instance holding the stream vanished without a word (killed), its `alive` messages stop: after
 * ORPHAN_AFTER_PINGS intervals without one, the stream's operations end here too.
 */
import type { EventBus } from '../src/events/event-bus.ts';
import { MAX_OPERATIONS_PER_CONNECTION, TOO_MANY_OPERATIONS_MESSAGE } from './operation-bounds.ts';
import type { StreamShutdown } from './stream-shutdown.ts';

export const STREAM_TOKEN_HEADER = 'x-graphql-event-stream-token';
/** How often an open stream gets a comment line (as yoga's own SSE) and tells the operations' instances it lives. */
export const STREAM_PING_MS = 12_000;

/** Two pings missed and a half (of the holder's interval, which may run late on a busy instance): an orphan. */
const ORPHAN_AFTER_PINGS = 2.5;
const ACCEPTED_JSON = new Set(['*/*', 'application/*', 'application/json']);

/** What the operations need of yoga: its Fetch handler. */
export interface FetchHandler {
  fetch(request: Request, serverContext: { clientAddress: string; requestId?: string; operationSignal?: AbortSignal }): Response | Promise<Response>;
}

interface Stream {
  /** Operation id → what stops it. */
  operations: Map<string, () => void>;
  lastAlive: number;
  unlisten: () => void;
}

export class SingleConnectionOperations {
  private yoga: FetchHandler | undefined;
  /** The streams this instance runs operations of, by stream key. */
  private readonly streams = new Map<string, Stream>();
  private watchdog: NodeJS.Timeout | undefined;
  /** Shutting down: operations end without their `complete` (dispose). */
  private stopping = false;

  constructor(
    private readonly bus: EventBus,
    private readonly shutdown: StreamShutdown,
    private readonly maxBodyBytes: number,
    /** The holder's ping interval (STREAM_PING_MS; shorter in tests): the watchdog looks this often. */
    private readonly pingMs = STREAM_PING_MS,
  ) {}

  attach(yoga: FetchHandler): void {
    this.yoga = yoga;
  }

  async start(request: Request, key: string, serverContext: { clientAddress: string; requestId?: string }, fetchAPI: FetchApi): Promise<Response> {
    if (request.method !== 'POST') return errorResponse(fetchAPI, 405, 'Operations are POSTed; the stream is opened with accept: text/event-stream');
    if (!ACCEPTED_JSON.has(request.headers.get('accept') ?? '*/*')) return new fetchAPI.Response(null, { status: 406 });
    const text = await textWithin(request, this.maxBodyBytes);
    if (text === null) return errorResponse(fetchAPI, 413, 'The request body is too large');
    const operationId = operationIdOf(text);
    if (operationId === null) return errorResponse(fetchAPI, 400, 'Operation ID is missing');
    if (this.shutdown.ending) return errorResponse(fetchAPI, 503, 'The server is shutting down');
    const stream = await this.streamOf(key);
    if (stream.operations.has(operationId)) return errorResponse(fetchAPI, 409, 'Operation with ID already exists');
    if (stream.operations.size >= MAX_OPERATIONS_PER_CONNECTION) return errorResponse(fetchAPI, 429, TOO_MANY_OPERATIONS_MESSAGE);
    // Held while yoga answers, so a second POST of this id meanwhile is refused too, and a DELETE is kept. A stop
    // aborts the operation's signal, which ends its subscription at once (use-abortable-subscriptions.ts).
    const abort = new AbortController();
    let stopped = false;
    stream.operations.set(operationId, () => {
      stopped = true;
      abort.abort();
    });
    const headers = new fetchAPI.Headers(request.headers);
    headers.delete(STREAM_TOKEN_HEADER);
    headers.set('accept', 'text/event-stream');
    const url = new URL(request.url);
    url.searchParams.delete('token');
    let response: Response;
    try {
      response = await this.yoga!.fetch(new fetchAPI.Request(url, { method: 'POST', headers, body: text }), { ...serverContext, operationSignal: abort.signal });
    } catch (error) {
      this.finish(key, operationId);
      throw error;
    }
    if (response.status !== 200 || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      this.finish(key, operationId);
      return response;
    }
    void this.relay(key, operationId, response.body, stopped, abort);
    return new fetchAPI.Response(null, { status: 202 });
  }

  /**
   * Shutdown: ends every operation this instance runs, and each of their streams (wherever it is held) without
   * their `complete`, so graphql-sse's client reconnects and subscribes again on an instance that stays; a
   * `complete` would end its subscriptions for good (as graphql-ws clients after 1001, docs/edge.md#graphql-sse).
   */
  dispose(): void {
    this.stopping = true;
    for (const [key, stream] of this.streams) {
      this.bus.publish('graphqlSseStream', key, { kind: 'end' });
      for (const stop of [...stream.operations.values()]) stop();
    }
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  /** yoga's SSE events of one operation, read as they come, published for the stream; then its `complete`. */
  private async relay(key: string, operationId: string, body: ReadableStream<Uint8Array>, stoppedAlready: boolean, abort: AbortController): Promise<void> {
    const reader = body.getReader();
    const stop = (): void => {
      abort.abort();
      void reader.cancel().catch(() => undefined);
    };
    this.streams.get(key)?.operations.set(operationId, stop);
    if (stoppedAlready) stop();
    const decoder = new TextDecoder();
    const id = JSON.stringify(operationId);
    let buffered = '';
    try {
      for (let step = await reader.read(); !step.done; step = await reader.read()) {
        buffered += decoder.decode(step.value, { stream: true });
        for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
          const data = nextData(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          if (data !== null) this.bus.publish('graphqlSseStream', key, { kind: 'event', text: `event: next\ndata: {"id":${id},"payload":${data}}\n\n` });
        }
      }
    } catch {
      // Cancelled (stop, closed, orphaned) or cut: the operation ends either way.
    } finally {
      this.finish(key, operationId);
      if (!this.stopping) this.bus.publish('graphqlSseStream', key, { kind: 'event', text: `event: complete\ndata: {"id":${id}}\n\n` });
    }
  }

  /** The stream's entry here, listening (on Redis, subscribed) for its stops, its end and its pings. */
  private async streamOf(key: string): Promise<Stream> {
    const known = this.streams.get(key);
    if (known) return known;
    const stream: Stream = { operations: new Map(), lastAlive: Date.now(), unlisten: () => {} };
    this.streams.set(key, stream);
    stream.unlisten = this.bus.listen('graphqlSseStream', key, (message) => {
      if (message.kind === 'alive') stream.lastAlive = Date.now();
      else if (message.kind === 'stop') stream.operations.get(message.operationId)?.();
      else if (message.kind === 'closed') for (const stop of [...stream.operations.values()]) stop();
    });
    this.watchdog ??= setInterval(() => this.endOrphans(), this.pingMs).unref();
    await this.bus.subscribed();
    return stream;
  }

  private finish(key: string, operationId: string): void {
    const stream = this.streams.get(key);
    if (!stream) return;
    stream.operations.delete(operationId);
    if (stream.operations.size > 0) return;
    stream.unlisten();
    this.streams.delete(key);
    if (this.streams.size === 0) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  private endOrphans(): void {
    const now = Date.now();
    for (const stream of this.streams.values()) {
      if (now - stream.lastAlive > this.pingMs * ORPHAN_AFTER_PINGS) for (const stop of [...stream.operations.values()]) stop();
    }
  }
}

export type FetchApi = { Response: typeof Response; Request: typeof Request; Headers: typeof Headers; ReadableStream: typeof ReadableStream };

/** An error in graphql-sse's shape: `{"errors":[{"message":…}]}`. */
export function errorResponse(fetchAPI: FetchApi, status: number, message: string): Response {
  return new fetchAPI.Response(JSON.stringify({ errors: [{ message }] }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** The body as text, or null once it passes `max` bytes (read no further): a chunked body has no length to check. */
async function textWithin(request: Request, max: number): Promise<string | null> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    size += step.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(step.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `extensions.operationId` of a GraphQL request's JSON text, when it is a non-empty string. */
function operationIdOf(text: string): string | null {
  let params: unknown;
  try {
    params = JSON.parse(text);
  } catch {
    return null;
  }
  const extensions = (params as { extensions?: unknown } | null)?.extensions;
  const id = typeof extensions === 'object' && extensions !== null ? (extensions as { operationId?: unknown }).operationId : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : null;
}

/** The data of a `next` event (one SSE block as yoga writes it); null for a comment, `complete` or anything else. */
function nextData(block: string): string | null {
  if (!block.startsWith('event: next\n')) return null;
  const lines = block.split('\n').filter((line) => line.startsWith('data:'));
  return lines.length === 0 ? null : lines.map((line) => line.slice(line[5] === ' ' ? 6 : 5)).join('\n');
}
