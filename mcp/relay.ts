/**
 * Questions a tool puts to the user, answered on any instance (docs/agents.md#sessions). A tool's elicitation goes
 * out on the SSE stream of the POST that called the tool, held by one instance; the client POSTs the answer as a new
 * request, which a load balancer may send to another. So every question's id names where it was asked —
 * `<instance>.<call>.<n>` — and the instance that receives the answer publishes it on the event bus under that
 * instance's name; the asking instance hands it to the waiting call. Same instance or not, the path is the same.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../src/events/event-bus.ts';
import { sha256Hex } from '../src/kernel/tokens.ts';

/** Wraps the SDK's transport of one call: its outgoing requests get routable ids, answers come back by `deliver`. */
export class RelayedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    private readonly inner: Transport,
    /** `<instance>.<call>`: the prefix of every id this call sends. */
    readonly route: string,
    readonly sessionId: string,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const outgoing = 'method' in message && 'id' in message ? { ...message, id: `${this.route}.${message.id}` } : withPlainError(message);
    return this.inner.send(outgoing, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** A client's answer to one of this call's questions, its id back to the number the SDK gave it. */
  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
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

export const sessionKey = (sessionId: string): string => sha256Hex(sessionId);

/**
 * A JSON-RPC answer (result or error, no method) to a question asked under `<instance>.<call>.<n>`: where it goes.
 * Anything else (another id, a request, a notification): null.
 */
export function replyRoute(message: unknown): { instance: string; callId: string; message: Record<string, unknown> } | null {
  if (typeof message !== 'object' || message === null || 'method' in message) return null;
  const id = (message as { id?: unknown }).id;
  if (typeof id !== 'string' || !('result' in message || 'error' in message)) return null;
  const match = /^([A-Za-z0-9_-]{1,32})\.([a-z0-9]{1,16})\.([0-9]{1,12})$/u.exec(id);
  if (!match) return null;
  return { instance: match[1]!, callId: match[2]!, message: { ...(message as Record<string, unknown>), id: Number(match[3]) } };
}

/** Publishes an answer for the instance that asked. */
export function relayReply(bus: EventBus, sessionId: string, route: NonNullable<ReturnType<typeof replyRoute>>): void {
  bus.publish('mcpReply', route.instance, { sessionKey: sessionKey(sessionId), callId: route.callId, message: route.message });
}

/** Listens for answers to this instance's questions until `stop`. */
export function listenForReplies(bus: EventBus, instance: string, onReply: (reply: RelayedReply) => void): { stop(): void } {
  const replies = bus.subscribe('mcpReply', instance);
  // Asked at once: the bus subscribes (on Redis, SUBSCRIBE is sent) on the first next(), before any question goes out.
  const iterator = replies[Symbol.asyncIterator]();
  void (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) onReply(next.value);
  })().catch(() => undefined);
  return { stop: () => void iterator.return?.() };
}
