/**
 * `notifications/resources/updated`, on each status change of a subscribed order (docs/agents.md#order-resources).
 * This instance holds some sessions' standalone streams (GET /mcp); it follows `orderChanged` on the event bus —
 * the bus the GraphQL subscriptions follow, through Redis across instances — and for each change reads from the
 * shared store which sessions follow that order, and writes to those whose stream it holds. A change made on any
 * instance, a subscription made on any instance: the instance with the stream sends the update. After a break in
 * Redis, whose changes were announced to nobody, every order a session here follows gets an update: a client that
 * reads the resource again for nothing loses less than one that never learns of a change.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EventBus } from '../src/events/event-bus.ts';
import type { Logger } from '../src/kernel/logger.ts';
import { sessionKey, type SessionStore } from './session-store.ts';

export class ResourceUpdates {
  /** sessionKey → the session and the transport of its standalone stream on this instance. */
  private readonly streams = new Map<string, { sessionId: string; transport: Transport }>();
  /** The notifications being sent, one change after another, so a session's updates keep the changes' order. */
  private sending: Promise<void> = Promise.resolve();
  private readonly unlisten: () => void;
  private readonly unresume: () => void;

  constructor(
    bus: EventBus,
    private readonly store: SessionStore,
    /** Opens a URI sealed with VAULT_KEY. */
    private readonly open: (sealed: string) => string,
    private readonly logger: Logger,
  ) {
    this.unlisten = bus.listen('orderChanged', ({ orderNumber }) => {
      if (this.streams.size === 0) return; // nothing to send from here: no store read per change
      this.send(() => this.notify(orderNumber));
    });
    this.unresume = bus.onResume(() =>
      this.send(async () => {
        const orders = new Set<string>();
        for (const { sessionId } of this.streams.values()) for (const orderNumber of await this.store.followed(sessionId)) orders.add(orderNumber);
        for (const orderNumber of orders) await this.notify(orderNumber);
      }),
    );
  }

  /** Runs after what is being sent, so a session's updates keep the changes' order. */
  private send(work: () => Promise<void>): void {
    this.sending = this.sending.then(work).catch((error: unknown) => this.logger.warn('MCP resource updates not sent', { error }));
  }

  private async notify(orderNumber: string): Promise<void> {
    for (const subscription of await this.store.subscribers(orderNumber)) {
      const stream = this.streams.get(subscription.sessionKey)?.transport;
      if (!stream) continue;
      const uri = this.open(subscription.sealedUri);
      await stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } }).catch(() => undefined);
    }
  }

  /** The session's stream is here now; a previous one of the same session is closed (one per session). */
  attach(sessionId: string, transport: Transport): void {
    const key = sessionKey(sessionId);
    const previous = this.streams.get(key)?.transport;
    this.streams.set(key, { sessionId, transport });
    if (previous && previous !== transport) void previous.close();
  }

  detach(sessionId: string, transport: Transport): void {
    const key = sessionKey(sessionId);
    if (this.streams.get(key)?.transport === transport) this.streams.delete(key);
  }

  /** Ends every stream this instance holds (shutdown, or a session deleted). */
  end(sessionId?: string): void {
    for (const [key, { sessionId: id, transport }] of this.streams) {
      if (sessionId !== undefined && id !== sessionId) continue;
      this.streams.delete(key);
      void transport.close();
    }
  }

  async dispose(): Promise<void> {
    this.end();
    this.unlisten();
    this.unresume();
    await this.sending;
  }
}
