/**
 * The typed topic map of domain events. Events carry ids and a version, not whole objects: a subscriber
 * reloads current state, so a late or repeated event can never show something stale.
 */
import type { OptionsChangedEvent, OrderChangedEvent } from '../orders/order-events.ts';

export type { OptionsChangedEvent, OrderChange, OrderChangedEvent } from '../orders/order-events.ts';

export type Topics = {
  /** Every change of every order (staff streams, the hold scheduler). */
  orderChanged: [OrderChangedEvent];
  /** The changes of one order, keyed by its number. */
  order: [orderNumber: string, OrderChangedEvent];
  optionsChanged: [OptionsChangedEvent];
  eventInfoChanged: [{ updatedAt: number }];
  /**
   * Outbox rows were committed (src/notifications/outbox-service.ts): dispatchers wake up instead of waiting for a
   * poll. `outbox` says whether any waits for MERCHANT_ENDPOINT, `endpoints` which merchant endpoints got deliveries
   * of them: each dispatcher wakes only for its own work (src/notifications/dispatcher-job.ts, delivery-job.ts).
   * Left out (an instance of an older version, or work of unknown reach), every dispatcher sweeps all it serves.
   */
  notificationQueued: [{ ids: string[]; outbox?: boolean; endpoints?: string[] }];
  /** A delivery attempt was recorded (src/notifications/attempt-service.ts): staff `notificationEvents`, one per attempt. */
  notificationAttempted: [{ id: string; attempt: number }];
  /**
   * A client's answer to a question an MCP tool asked on the instance named by the key (docs/agents.md#sessions):
   * the session (hashed), the call that asked, and the JSON-RPC answer. Plain JSON; the core reads none of it.
   */
  mcpReply: [instance: string, { sessionKey: string; callId: string; message: Record<string, unknown> }];
  /**
   * A client's `notifications/cancelled` of one of its requests, for every instance: the one running the call that
   * serves that request of that session (hashed) stops it (docs/agents.md#sessions). Plain JSON; the core reads none.
   */
  mcpCancel: [{ sessionKey: string; requestId: string | number; reason?: string }];
  /**
   * One graphql-sse stream in its single connection mode (graphql-server/single-connection-mode.ts), keyed by a hash
   * of its token: an operation's events, run on whichever instance its POST reached, for the instance holding the
   * stream (`event`: ready SSE text; `end`: that instance is shutting down, so the stream ends and its client comes
   * back); `stop` (a DELETE) and `closed` for the instances running the operations; `alive` from the holder every
   * ping. Plain JSON; the core reads none of it.
   */
  graphqlSseStream: [
    streamKey: string,
    { kind: 'event'; text: string } | { kind: 'end' } | { kind: 'stop'; operationId: string } | { kind: 'closed' } | { kind: 'alive' },
  ];
  /** A delivery to a merchant's own endpoint changed (queued, attempted, made due again; src/notifications/delivery-job.ts). */
  webhookDeliveryChanged: [{ deliveryId: string; endpointId: string; siteId: string }];
  /** The dispatcher disabled an endpoint (410, or failing for ENDPOINT_DISABLE_AFTER): a staff notice, never a secret. */
  webhookEndpointDisabled: [{ endpointId: string; siteId: string; url: string; reason: string; at: number }];
};
