/**
 * Questions a tool puts to the user, answered on any instance (docs/agents.md#sessions). A tool's elicitation goes
 * out on the SSE stream of the POST that called the tool, held by one instance; the client POSTs the answer as a new
 * request, which a load balancer may send to another. So every question's id names where it was asked —
 * `<instance>.<call>.<n>` — and the instance that receives the answer publishes it on the event bus under that
 * instance's name; the asking instance hands it to the waiting call. Same instance or not, the path is the same.
 *
 * A client's `notifications/cancelled` names only its own request id, not where the call serving it runs: claimed
 * (call-records.ts), it goes to every instance, and the one running that request of that session delivers it into the
 * call's transport, where the SDK aborts the handler's signal (MCP 2025-11-25, cancellation: the receiver SHOULD stop
 * processing it).
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../src/events/event-bus.ts';
import type { Topics } from '../src/events/topics.ts';
import { sessionKey } from './session-store.ts';

/**
 * Wraps the SDK's transport of one call: its outgoing requests get routable ids, answers come back by `deliver`, the
 * client's cancellations by `cancel`.
 */
export class RelayedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The client's requests this call serves that are neither answered nor cancelled. */
  private readonly open: Set<RequestId>;
  private cancelled: RequestId | undefined;
  /** This call's questions (the SDK's ids, as strings) neither answered nor withdrawn. */
  private readonly asked = new Set<string>();

  constructor(
    private readonly inner: Transport,
    /** `<instance>.<call>`: the prefix of every id this call sends. */
    readonly route: string,
    readonly sessionId: string,
    requests: readonly RequestId[],
    /**
     * Ends the HTTP answer once every request is answered or cancelled and one was cancelled: the SDK sends nothing
     * for a cancelled request, so it would never end it itself.
     */
    private readonly endUnanswered: (cancelled: RequestId) => void,
  ) {
    this.open = new Set(requests);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Before it is written: the answer may come back (on another instance, over the bus) before the write resolves.
    if ('method' in message && 'id' in message) this.asked.add(String(message.id));
    else if ('method' in message && message.method === 'notifications/cancelled') this.asked.delete(String(message.params?.requestId));
    await this.inner.send(this.routed(message), options);
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.settle(message.id);
  }

  /** Ids of this call's questions as the client knows them, in the questions and in their withdrawals. */
  private routed(message: JSONRPCMessage): JSONRPCMessage {
    if ('method' in message && 'id' in message) return { ...message, id: `${this.route}.${message.id}` };
    if ('method' in message && message.method === 'notifications/cancelled' && message.params) {
      return { ...message, params: { ...message.params, requestId: `${this.route}.${String(message.params.requestId)}` } };
    }
    return withPlainError(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * A client's answer to one of this call's questions, its id back to the number the SDK gave it; once: the bus and
   * the kept answers (call-records.ts) may both bring it, and an answer to a withdrawn question is not heard.
   */
  deliver(message: JSONRPCMessage): void {
    if (this.asked.delete(String((message as { id?: unknown }).id))) this.onmessage?.(message);
  }

  /** The ids, as the client knows them (`<instance>.<call>.<n>`), of the questions still waiting for an answer. */
  waitingQuestions(): string[] {
    return [...this.asked].map((id) => `${this.route}.${id}`);
  }

  /**
   * The client cancelled `requestId`: if this call still serves it, the SDK aborts its handler's signal (which
   * withdraws the question it waits on) and will send it no answer. Nothing otherwise: answered already, or not here.
   */
  cancel({ requestId, reason }: RelayedCancel): void {
    // Once: a cancel posted here is delivered at once and again when the bus brings it back.
    if (!this.open.has(requestId) || this.cancelled === requestId) return;
    this.cancelled = requestId;
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, ...(reason === undefined ? {} : { reason }) } });
    // After what the SDK writes on the way (the withdrawal of the question), before the HTTP answer ends.
    setImmediate(() => this.settle(requestId));
  }

  private settle(requestId: RequestId): void {
    if (!this.open.delete(requestId) || this.open.size > 0 || this.cancelled === undefined) return;
    this.endUnanswered(this.cancelled);
  }
}

/**
 * An error answer's message without the "MCP error <code>: " the SDK's McpError writes into it: the SDK sends the
 * message as it is, and the client's McpError adds the prefix again ("MCP error -32602: MCP error -32602: Resource
 * … not found"). The wire carries the message alone, as JSON-RPC means it.
 */
function withPlainError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const plain = message.error.message.replace(/^MCP error -?[0-9]+: /u, '');
  return plain === message.error.message ? message : { ...message, error: { ...message.error, message: plain } };
}

/** What goes over the bus: the answer, for the call it names, of the session (hashed) that sent it. */
export interface RelayedReply {
  sessionKey: string;
  callId: string;
  message: Record<string, unknown>;
}

/**
 * A JSON-RPC answer (result or error, no method) to a question asked under `<instance>.<call>.<n>`: where it goes.
 * Anything else (another id, a request, a notification): null.
 */
function replyRoute(message: unknown): { questionId: string; instance: string; callId: string; message: Record<string, unknown> } | null {
  if (typeof message !== 'object' || message === null || 'method' in message) return null;
  const id = (message as { id?: unknown }).id;
  if (typeof id !== 'string' || !('result' in message || 'error' in message)) return null;
  const match = /^([A-Za-z0-9_-]{1,32})\.([a-z0-9]{1,16})\.([0-9]{1,12})$/u.exec(id);
  if (!match) return null;
  return { questionId: id, instance: match[1]!, callId: match[2]!, message: { ...(message as Record<string, unknown>), id: Number(match[3]) } };
}

/** What goes over the bus for a client's `notifications/cancelled`: its session (hashed) and the request it names. */
export type RelayedCancel = Topics['mcpCancel'][0];

/** A `notifications/cancelled` naming a request (a string or number id): what to relay of it; anything else null. */
function cancelOf(message: unknown): { requestId: RequestId; reason?: string } | null {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { requestId?: unknown; reason?: unknown } };
  if (method !== 'notifications/cancelled' || typeof params !== 'object' || params === null) return null;
  const { requestId, reason } = params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return null;
  return { requestId, ...(typeof reason === 'string' ? { reason: reason.slice(0, 200) } : {}) };
}

/** What the door does with what a client posts for its calls (mcp-door.ts), beside the bus. */
export interface ClientRelay {
  /** Keeps an answer before it is published, for an asking instance that misses the publish (call-records.ts). */
  keep(questionId: string, answer: RelayedReply): Promise<void>;
  /** True when the cancel is taken: the call it names had not begun to act (call-records.ts). */
  claim(cancel: RelayedCancel): Promise<boolean>;
  /** Hands a taken cancel to the call, if it runs on this instance. */
  here(cancel: RelayedCancel): void;
}

/**
 * Relays what a client POSTs for calls running anywhere: an answer to the instance that asked the question (kept
 * first, for an instance that misses the publish), a cancellation to every instance. Anything else is left to the
 * request's own server. A cancellation is claimed first (a call that already acts keeps acting, and is answered) and,
 * taken, handed to `relay.here` before the POST is answered: over Redis the bus brings it back only later. The claim
 * is what stops a call on another instance that would act before the bus brings it there.
 */
export async function relayFromClient(bus: EventBus, sessionId: string, message: unknown, relay: ClientRelay): Promise<void> {
  const route = replyRoute(message);
  if (route) {
    const reply = { sessionKey: sessionKey(sessionId), callId: route.callId, message: route.message };
    await relay.keep(route.questionId, reply);
    return bus.publish('mcpReply', route.instance, reply);
  }
  const request = cancelOf(message);
  if (!request) return;
  const cancel = { sessionKey: sessionKey(sessionId), ...request };
  if (!(await relay.claim(cancel))) return;
  relay.here(cancel);
  bus.publish('mcpCancel', cancel);
}

/** Listens for answers to this instance's questions and for every cancellation, until `stop`. */
export function listenForClients(bus: EventBus, instance: string, on: { reply(reply: RelayedReply): void; cancel(cancel: RelayedCancel): void }): { stop(): void } {
  const replies = bus.subscribe('mcpReply', instance);
  // Asked at once: the bus subscribes (on Redis, SUBSCRIBE is sent) on the first next(), before any question goes out.
  const iterator = replies[Symbol.asyncIterator]();
  void (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) on.reply(next.value);
  })().catch(() => undefined);
  const unlisten = bus.listen('mcpCancel', on.cancel);
  return {
    stop: () => {
      void iterator.return?.();
      unlisten();
    },
  };
}
