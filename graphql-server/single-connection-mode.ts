/**
 * graphql-sse's single connection mode (its PROTOCOL.md), served on /graphql beside the distinct connections mode
 * that yoga serves itself (docs/edge.md#graphql-sse):
 *  - `PUT` reserves a stream: 201 and a token (text/plain).
 *  - `GET` (or `POST`) with the token and `accept: text/event-stream` opens it: one open stream per token.
 *  - `POST` with the token and a GraphQL request whose `extensions.operationId` names it: 202; its results come on
 *    the stream as `next` `{id, payload}` events, then `complete` `{id}`.
 *  - `DELETE` with the token and `?operationId=`: that operation stops.
 * The token travels in the `x-graphql-event-stream-token` header or the `token` query parameter.
 *
 * Nothing is stored, so any number of instances behind one address serve it. A token is random and carries its own
 * HMAC, keyed from ADMIN_TOKEN (which every instance shares), so any instance knows it reserved it. An operation runs
 * on the instance its POST reached, through yoga's whole pipeline as a request of the distinct mode
 * (single-connection-operations.ts), and its events go over the event bus (Redis, with several instances) to
 * whichever instance holds the stream. graphql-sse's own handler, which @graphql-yoga/plugin-graphql-sse wraps,
 * keeps reservations and streams in one process's memory: behind nginx's least_conn a stream reserved on one
 * instance was "not found" on the next.
 */
import { createHmac } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { EventBus } from '../src/events/event-bus.ts';
import { randomToken, secretsEqual, sha256Hex } from '../src/kernel/tokens.ts';
import { errorResponse, SingleConnectionOperations, STREAM_PING_MS, STREAM_TOKEN_HEADER, type FetchApi, type FetchHandler } from './single-connection-operations.ts';
import type { StreamShutdown } from './stream-shutdown.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}$/u;

/**
 * Bytes of events a stream may hold for a client that has not read them (beyond the socket's own buffers). Events
 * are pushed from the bus, not pulled, so a client that stops reading would otherwise pile up every event of its
 * operations for as long as it stays connected. Past this the stream ends, as after a break in Redis: the client
 * reconnects and subscribes again, and each subscription starts with the state as it is then.
 */
export const STREAM_BACKLOG_BYTES = 1024 * 1024;

export interface SingleConnectionDeps {
  bus: EventBus;
  /** The instances' shared secret the tokens' HMAC key is derived from. */
  secret: string;
  streams: StreamShutdown;
  maxBodyBytes: number;
}

/** What yoga passes its plugins besides the request (yoga-server.ts's ServerContext). */
type Transport = { clientAddress: string; requestId?: string };

/** The bus key of a stream: a hash, so the token itself never travels to Redis. */
export const streamKey = (token: string): string => sha256Hex(token).slice(0, 32);

export class SingleConnectionMode {
  readonly plugin: Plugin<Record<string, unknown>, Transport>;
  private readonly key: Buffer;
  /** The streams open on this instance, by token: what ends each. */
  private readonly open = new Map<string, () => void>();
  private readonly operations: SingleConnectionOperations;
  private readonly unresume: () => void;

  constructor(private readonly deps: SingleConnectionDeps) {
    this.key = createHmac('sha256', deps.secret).update('graphql-sse stream token').digest();
    this.operations = new SingleConnectionOperations(deps.bus, deps.streams, deps.maxBodyBytes);
    // Redis was away: events relayed meanwhile are lost. Each stream ends, so its client reconnects and subscribes
    // again, and every subscription starts with the state as it is now (docs/edge.md#graphql-sse).
    this.unresume = deps.bus.onResume(() => {
      for (const end of [...this.open.values()]) end();
    });
    this.plugin = {
      onRequest: async ({ request, url, endResponse, serverContext, fetchAPI }) => {
        if (request.method === 'PUT') return endResponse(this.reserve(request, fetchAPI));
        const token = request.headers.get(STREAM_TOKEN_HEADER) ?? url.searchParams.get('token');
        // No token: the distinct connections mode or any other request, yoga's.
        if (token === null) return;
        if (!this.valid(token)) return endResponse(errorResponse(fetchAPI, 404, 'Stream not found'));
        if (request.method === 'DELETE') return endResponse(this.stop(token, url, fetchAPI));
        if (request.method !== 'GET' && request.method !== 'POST') {
          return endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, POST, PUT, DELETE' } }));
        }
        if (request.headers.get('accept') === 'text/event-stream') {
          this.deps.streams.leaveToItself(request);
          return endResponse(await this.openStream(token, request.signal, fetchAPI));
        }
        const { clientAddress, requestId } = serverContext;
        return endResponse(await this.operations.start(request, streamKey(token), { clientAddress, requestId }, fetchAPI));
      },
    };
  }

  /** yoga's Fetch handler, which runs the operations (yoga is made after this plugin, with it). */
  attach(yoga: FetchHandler): void {
    this.operations.attach(yoga);
  }

  /** Ends the operations this instance runs (the streams end through StreamShutdown). */
  dispose(): void {
    this.unresume();
    this.operations.dispose();
  }

  private reserve(request: Request, fetchAPI: FetchApi): Response {
    const accept = request.headers.get('accept') ?? '*/*';
    if (accept !== '*/*' && accept !== 'text/plain') return new fetchAPI.Response(null, { status: 406 });
    const nonce = randomToken(24);
    return new fetchAPI.Response(`${nonce}.${this.tag(nonce)}`, { status: 201, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }

  private tag(nonce: string): string {
    return createHmac('sha256', this.key).update(nonce).digest().subarray(0, 16).toString('base64url');
  }

  private valid(token: string): boolean {
    if (!TOKEN_SHAPE.test(token)) return false;
    const dot = token.indexOf('.');
    return secretsEqual(token.slice(dot + 1), this.tag(token.slice(0, dot)));
  }

  private stop(token: string, url: URL, fetchAPI: FetchApi): Response {
    const operationId = url.searchParams.get('operationId');
    if (!operationId) return errorResponse(fetchAPI, 400, 'Operation ID is missing');
    this.deps.bus.publish('graphqlSseStream', streamKey(token), { kind: 'stop', operationId });
    return new fetchAPI.Response(null, { status: 200 });
  }

  /**
   * The stream: what the operations' instances relay for it, and a comment line every ping, until either side ends.
   * Events are pushed from the bus, so they wait in `unread` until the response asks for more (the server asks once
   * the socket drained): a client that stops reading ends its stream past STREAM_BACKLOG_BYTES.
   */
  private async openStream(token: string, left: AbortSignal, fetchAPI: FetchApi): Promise<Response> {
    if (this.open.has(token)) return errorResponse(fetchAPI, 409, 'Stream already open');
    const key = streamKey(token);
    const { bus } = this.deps;
    const encoder = new TextEncoder();
    const unread: Uint8Array[] = [];
    let unreadBytes = 0;
    let ended = false;
    /** Resolves the response's pending ask for more, when it waits. */
    let wake: (() => void) | undefined;
    const write = (text: string): void => {
      if (ended) return;
      const chunk = encoder.encode(text);
      unread.push(chunk);
      unreadBytes += chunk.byteLength;
      if (unreadBytes <= STREAM_BACKLOG_BYTES) return wake?.();
      // The client is this far behind: what waits is let go, and the stream ends (docs/edge.md#graphql-sse).
      unread.length = 0;
      unreadBytes = 0;
      end();
    };
    const unlisten = bus.listen('graphqlSseStream', key, (message) => {
      if (message.kind === 'event') write(message.text);
      else if (message.kind === 'end') end();
    });
    const pinger = setInterval(() => {
      write(':\n\n');
      bus.publish('graphqlSseStream', key, { kind: 'alive' });
    }, STREAM_PING_MS);
    const unregister = this.deps.streams.register(() => end());
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearInterval(pinger);
      unlisten();
      unregister();
      this.open.delete(token);
      // The instances running this stream's operations end them: nobody reads their results any more.
      bus.publish('graphqlSseStream', key, { kind: 'closed' });
      wake?.();
    };
    this.open.set(token, end);
    // An empty comment first: some browsers show nothing of a stream until its first bytes.
    write(':\n\n');
    const body = new fetchAPI.ReadableStream<Uint8Array>({
      pull: async (controller) => {
        while (unread.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        for (const chunk of unread.splice(0)) controller.enqueue(chunk);
        unreadBytes = 0;
        if (ended) controller.close();
      },
      cancel: () => end(),
    });
    // The client left (its connection closed), even before its answer was sent or the body read: the stream ends.
    left.addEventListener('abort', end, { once: true });
    // Answered once the bus listens (on Redis, once SUBSCRIBE is acknowledged): an operation posted after this
    // answer, on any instance, reaches the stream.
    await bus.subscribed();
    if (left.aborted) end();
    return new fetchAPI.Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' },
    });
  }
}
