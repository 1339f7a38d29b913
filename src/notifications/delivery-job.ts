/**
 * The dispatcher of merchants' own endpoints (docs/merchant-webhooks.md#isolation): it claims due deliveries one
 * endpoint at a time, round-robin, at most PER_ENDPOINT in flight per endpoint and PER_SITE per site on this instance
 * (delivery-slots.ts), so an endpoint that hangs for the whole timeout, fails everything or has a huge backlog holds
 * its own slots and nobody else's, and a site with many such endpoints holds its share and no more. Claims
 * are conditional updates with a lease (`skip locked` on PostgreSQL): two instances never send one delivery at once.
 * Each attempt is signed with the endpoint's secrets (both during a rotation) and recorded with the endpoint's health
 * (delivery-attempt-service.ts, group commit). Throttled and disabled endpoints are not claimed for. The bootstrap
 * endpoint has its own dispatcher, unchanged (dispatcher-job.ts).
 *
 * Per delivery it does as little as it can (bench/webhooks.ts, README "Benchmark"): attempts are recorded several to a
 * commit, and the slots they leave at their endpoint are refilled in that same commit (claimNext: the endpoint row
 * from its health update, one claim with the messages' bodies in one query), not by a sweep of every endpoint nor a
 * commit of its own; secrets are opened, and their HMAC keys made, once per sealed value (delivery-request-service.ts).
 */
import { withAsynchronousCommit } from '../db/asynchronous-commit.ts';
import type { Db } from '../db/database.ts';
import type { BackgroundDeps, Disposable } from '../jobs/background.ts';
import { createDueTimer } from '../jobs/due-sweeper.ts';
import { randomId } from '../kernel/tokens.ts';
import type { GatewayMetrics } from '../operations/metrics.ts';
import { createDeliveryRecorder, dropDelivery } from './delivery-attempt-service.ts';
import { claimDueOf, nextDueOf, releaseDelivery, type DeliveryRow } from './delivery-repository.ts';
import { createDeliveryRequests, UnopenedError, type Message } from './delivery-request-service.ts';
import { DeliverySlots, MAX_IN_FLIGHT, PER_ENDPOINT } from './delivery-slots.ts';
import { addressPolicy } from './endpoint-addresses.ts';
import { endpointAgents } from './endpoint-connection-client.ts';
import { findEndpoint, nextThrottleEnd, sendableEndpoints, type EndpointRow } from './endpoint-repository.ts';
import { notificationBodies } from './outbox-repository.ts';
import { DeliveriesInFlight, deliver, DELIVERY_TIMEOUT_MS, ok, type DeliveryResult } from './webhook-client.ts';

/** An attempt the gateway could not make, as its site sees it. */
const NOT_SENT = 'Not sent: the gateway could not open what it needs to sign and send this delivery. Its operator is told; it is retried on the schedule.';

const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;
const POLL_MS = 60_000;

export type DeliveryDispatcherDeps = BackgroundDeps & { metrics?: Pick<GatewayMetrics, 'deliveryAttempted'> & Partial<Pick<GatewayMetrics, 'endpointDisabled'>> };

export async function startDeliveryDispatcher(deps: DeliveryDispatcherDeps): Promise<Disposable> {
  const { database, config, clock, bus, logger, services, metrics } = deps;
  const owner = randomId('deliverer_');
  const inFlight = new DeliveriesInFlight<boolean>();
  const slots = new DeliverySlots(() => inFlight.size);
  /** Attempts waiting for each endpoint's answer now (the recorder gathers a batch only while some are). */
  const sending = new Map<string, number>();
  const record = createDeliveryRecorder(database, { claimNext, sendingAt: (id) => sending.get(id) ?? 0 });
  const timer = createDueTimer(clock, () => sweep());
  const requests = createDeliveryRequests(services);
  // Connections only where ENDPOINT_ALLOWED_NETWORKS allows (docs/merchant-webhooks.md#where-endpoints-may-be).
  const agents = endpointAgents(addressPolicy(config.endpointAllowedNetworks));
  let stopped = false;
  let running: Promise<void> | null = null;
  let sweepWanted = false;
  /**
   * Endpoints that have room again, or new messages, since the last pass: refilled alone, without a sweep of every
   * endpoint.
   */
  const refills = new Set<string>();
  /** A new message's endpoints are among the refills: the pass starts at once, as a sweep does. */
  let woken = false;
  /** Where the next round-robin pass starts, so no endpoint is always first when room is short. */
  let turn = 0;

  /** Every sendable endpoint, round-robin (at start, on a timer, when the instance-wide room was short). */
  function sweep(): Promise<void> {
    sweepWanted = true;
    return run();
  }

  /** Sweeps and refills run one after another; what is asked meanwhile is done next, in one pass. */
  function run(): Promise<void> {
    if (stopped) return Promise.resolve();
    running ??= (async () => {
      try {
        // Let the attempts recorded in one commit all ask first, so their endpoint is refilled in one claim. A sweep or
        // a new message starts at once: deferred, its queries would wait behind every request read meanwhile.
        if (!sweepWanted && !woken) await new Promise((resolve) => setImmediate(resolve));
        while (!stopped && (sweepWanted || refills.size > 0)) {
          woken = false;
          if (sweepWanted) {
            sweepWanted = false;
            refills.clear();
            await sweepAll();
          } else {
            const ids = [...refills];
            refills.clear();
            for (const id of ids) await refill(id);
          }
        }
      } catch (error) {
        logger.error('webhook delivery sweep failed; retrying', { error });
        timer.arm(clock.now() + 1_000);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  async function sweepAll(): Promise<void> {
    const now = clock.now();
    const endpoints = await sendableEndpoints(database.db, now);
    turn = endpoints.length ? (turn + 1) % endpoints.length : 0;
    for (let i = 0; i < endpoints.length && !stopped; i += 1) {
      const endpoint = endpoints[(turn + i) % endpoints.length]!;
      if (slots.room(endpoint) > 0) await claimFor(endpoint, now);
    }
    // A full endpoint (or no room at all) is refilled as its deliveries finish; claimFor armed the timer for the
    // next due row of every endpoint it emptied. Then a throttle's end, and the safety poll.
    timer.arm(Math.min(now + POLL_MS, (await nextThrottleEnd(database.db, now)) ?? Infinity));
  }

  /** One endpoint that has room again, read afresh (disabled, throttled or rotated meanwhile, by anyone). */
  async function refill(id: string): Promise<void> {
    if (slots.roomOf(id) <= 0) return;
    const endpoint = await findEndpoint(database.db, id, null);
    const now = clock.now();
    if (!endpoint || endpoint.enabled !== 1) return;
    if (endpoint.throttled_until != null && Number(endpoint.throttled_until) > now) return timer.arm(Number(endpoint.throttled_until));
    await claimFor(endpoint, now);
  }

  /**
   * Claims what the endpoint has room for, with the messages' bodies in one query, and sends each. On SQLite the
   * claim is a transaction of its own, committed without waiting for the disk: lost in a power cut, the rows are
   * due again and claimed again (asynchronous-commit.ts). On PostgreSQL it is one statement, as it was.
   */
  async function claimFor(endpoint: EndpointRow, now: number): Promise<void> {
    const room = slots.room(endpoint);
    if (room <= 0) return;
    const send = database.caps.skipLocked ? await claimIn(database.db, endpoint, room, now) : await withAsynchronousCommit(database, (trx) => claimIn(trx, endpoint, room, now));
    send();
  }

  /**
   * Claims up to `room` due deliveries of the endpoint in `db` (a transaction, or not), with their messages' bodies in
   * one query; returns what sends them (to run once the claim is committed), and, when fewer were due, arms the timer
   * for the next.
   */
  async function claimIn(db: Db, endpoint: EndpointRow, room: number, now: number): Promise<() => void> {
    const rows = await claimDueOf(db, endpoint.id, { owner, now, leaseMs: LEASE_MS, limit: room, skipLocked: database.caps.skipLocked });
    const ids = [...new Set(rows.filter((row) => row.body === null).map((row) => row.message_id))];
    const messages = new Map((await notificationBodies(db, ids)).map((message) => [message.id, message]));
    // Nothing more due now: wake when its next row is.
    const nextDue = rows.length < room ? await nextDueOf(db, endpoint.id) : null;
    return () => {
      for (const row of rows) track(endpoint, send(row, endpoint, messages.get(row.message_id) ?? null));
      if (nextDue !== null) timer.arm(Math.max(nextDue, now));
      // All the room it had, maybe more due. Unmarked, nothing named it when a sibling freed a slot, and its
      // deliveries waited for the minute's poll while the site's share had room again.
      else if (rows.length === room) slots.waitIfShareIsFull(endpoint);
    };
  }

  /**
   * The recorder's hand-over (delivery-attempt-service.ts): the slots a batch of attempts leaves at an endpoint are
   * refilled in the batch's own transaction, one commit instead of two, from the endpoint row its health update
   * returned (fresh: no read of its own). Not when room is short instance-wide (the freed slots go round-robin then),
   * nor while a sibling waits for one of the site's slots (delivery-slots.ts: they take turns).
   */
  async function claimNext(trx: Db, endpoint: EndpointRow, room: number): Promise<(() => void) | null> {
    // A failing endpoint is refilled by refill() instead, which gives it only its own slots (delivery-slots.ts).
    if (stopped || endpoint.failing_since != null || inFlight.size > MAX_IN_FLIGHT - PER_ENDPOINT || slots.siteWaits(endpoint.site_id)) return null;
    return claimIn(trx, endpoint, room, clock.now());
  }

  /** `work` resolves true when its slot was handed over to a delivery claimed in its commit (claimNext). */
  function track(endpoint: EndpointRow, work: Promise<boolean>): void {
    inFlight.add(work);
    slots.taken(endpoint);
    const done = (handedOver: boolean) => {
      // Short of room instance-wide, the freed slot goes round-robin (a sweep); otherwise to this endpoint, and to
      // the site's endpoints that waited for one of its slots.
      const roomWasShort = inFlight.size > MAX_IN_FLIGHT - PER_ENDPOINT;
      inFlight.delete(work);
      const waited = slots.freed(endpoint);
      if (stopped) return;
      if (roomWasShort) return void sweep();
      if (!handedOver) refills.add(endpoint.id);
      for (const id of waited) refills.add(id);
      if (refills.size > 0) void run();
    };
    void work.then(done, () => done(false));
  }

  /** Sends and records one delivery; true when its slot was handed over (claimNext). */
  async function send(row: DeliveryRow, endpoint: EndpointRow, message: Message | null): Promise<boolean> {
    try {
      const sentAt = clock.now();
      let result: DeliveryResult;
      try {
        const prepared = await requests.bodyAt(row, message, sentAt);
        if ('drop' in prepared) {
          if (await dropDelivery(database, row, owner, prepared.drop, clock.now())) changed(row);
          return false;
        }
        const headers = requests.headers(row, endpoint, prepared.send, sentAt);
        sending.set(endpoint.id, (sending.get(endpoint.id) ?? 0) + 1);
        try {
          result = await deliver({ url: endpoint.url + row.path, headers, body: prepared.send, traceParent: message?.trace_parent, askedBy: row.trace_parent }, { clock, signal: inFlight.signal, agents });
        } finally {
          const left = sending.get(endpoint.id)! - 1;
          if (left > 0) sending.set(endpoint.id, left);
          else sending.delete(endpoint.id);
        }
      } catch (error) {
        // A body or secret no key of this instance opens (an instance with another VAULT_KEY wrote it): recorded and
        // retried, but the operator's to fix, so it leaves the endpoint's health alone (it once disabled endpoints).
        // Which key was missing goes to the log, not to the merchant. Anything else (the claim's read failed) is no
        // attempt: below, the lease runs out (before, it was recorded as this, a key the instance did not have).
        if (!(error instanceof UnopenedError)) throw error;
        logger.error('webhook delivery could not be made', { id: row.id, endpointId: endpoint.id, error: error.message.slice(0, 200) });
        result = { statusCode: null, excerpt: null, error: NOT_SENT, durationMs: 0, retryAfterMs: null, interrupted: false, unsent: true };
      }
      if (result.interrupted) {
        await releaseDelivery(database.db, row.id, owner, clock.now());
        return false;
      }
      metrics?.deliveryAttempted(ok(result) ? 'delivered' : result.statusCode === null ? 'no_response' : 'http_error', result.durationMs / 1000);
      const recorded = await record({
        row,
        owner,
        url: endpoint.url,
        result,
        startedAt: sentAt,
        now: clock.now(),
        schedule: config.notifyRetrySchedule,
        disableAfterMs: config.endpointDisableAfterMs,
      });
      if (!recorded) return false;
      changed(row);
      if (recorded.disabled) {
        const { kind, reason, endpoint: disabled } = recorded.disabled;
        // docs/merchant-webhooks.md#disabling-and-recovery: the operational notice (no secret, no body).
        // Only the URL's host: a receiver's path may carry a token of its own.
        logger.warn('webhook endpoint disabled', { endpointId: disabled.id, siteId: disabled.site_id, host: new URL(disabled.url).host, reason });
        metrics?.endpointDisabled?.(kind);
        bus.publish('webhookEndpointDisabled', { endpointId: disabled.id, siteId: disabled.site_id, url: disabled.url, reason, at: clock.now() });
      }
      if (recorded.nextAttemptAt !== null) timer.arm(recorded.nextAttemptAt);
      if (recorded.throttledUntil !== null) timer.arm(recorded.throttledUntil);
      return recorded.handedOver;
    } catch (error) {
      logger.error('webhook delivery could not be prepared or recorded; its lease will run out', { error, id: row.id });
      return false;
    }
  }

  function changed(row: DeliveryRow): void {
    bus.publish('webhookDeliveryChanged', { deliveryId: row.id, endpointId: row.endpoint_id, siteId: row.site_id });
  }

  // After the publisher's call, as the subscription's loop ran it: the publisher may be this dispatcher, mid-sweep.
  // Only the endpoints the new messages went to: a sweep of every endpoint cost a claim at each, for every message
  // of any site. An event that does not say (an older instance's, a test's) sweeps them all, as before.
  const unlisten = bus.listen('notificationQueued', (event) => {
    queueMicrotask(() => {
      if (event.endpoints === undefined) return void sweep();
      if (event.endpoints.length === 0) return;
      for (const id of event.endpoints) refills.add(id);
      woken = true;
      void run();
    });
  });
  // After a break in Redis, messages queued meanwhile were announced to nobody: every endpoint now, not at the poll.
  const unresume = bus.onResume(() => void sweep());
  await sweep();
  return {
    async dispose() {
      stopped = true;
      timer.stop();
      unlisten();
      unresume();
      await running;
      await inFlight.drain();
      requests.clear();
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
