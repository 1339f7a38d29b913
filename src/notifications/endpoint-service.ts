/**
 * Merchant webhook endpoints (docs/merchant-webhooks.md): what a site does with its own endpoints over the REST API
 * (and the portal), and what staff see of every site's. Secrets are sealed under VAULT_KEY at rest and returned only
 * by `create` and `rotateSecret`. Every site method names the site: another site's endpoint id is `not_found`,
 * exactly like one that does not exist. Delivery itself is the dispatcher's (delivery-job.ts).
 */
import { DomainError } from '../kernel/errors.ts';
import { refuseUnopenable } from '../payments/vault-crypto.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { randomId, timeOrderedId } from '../kernel/tokens.ts';
import { openSecret, sealingKeyId, sealSecret } from './sealed-body.ts';
import { useBootstrapSite } from './bootstrap-site.ts';
import { deliveriesChangedSince, findDelivery, insertDeliveries, makeDue, pendingDueNow, redeliverInFlight } from './delivery-repository.ts';
import { deliveryPage, endpointPage, oneDelivery } from './webhook-page-service.ts';
import { anySealedSecret, deleteEndpoint, endpointsDisabledSince, findEndpoint, insertEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint, type EndpointRow } from './endpoint-repository.ts';
import { addressPolicy, literalRefusal } from './endpoint-addresses.ts';
import { DISABLED_BY_SITE, newSecret, parseEndpointInput, parseRecoverInput, ROTATION_OVERLAP_MS, TEST_PATH, testBody } from './endpoint-rules.ts';
import { toEndpoint } from './endpoint-view.ts';
import { createReadRecovery } from '../events/read-recovery.ts';
import { REPLAY_MAX, streamOf, viewsOf } from './stream-service.ts';
import { transaction } from '../db/transaction.ts';
import { activeTraceParent } from '../operations/tracing.ts';
import { ENDPOINTS_PER_SITE_MAX, type WebhookService } from './endpoint-contract.ts';

export type { CreatedEndpoint, DeliveryAttempt, EndpointDisabledNotice, Page, RotatedSecret, WebhookDelivery, WebhookEndpoint } from './endpoint-view.ts';
export type { EventType } from './endpoint-rules.ts';
export type { DeliveryStatus } from './endpoint-tables.ts';

export { ENDPOINTS_PER_SITE_MAX, PAGE_DEFAULT, PAGE_MAX } from './endpoint-contract.ts';
export type { DeliveryQuery, WebhookService } from './endpoint-contract.ts';

const notFound = () => new DomainError('not_found', 'No webhook endpoint has that id.');

export function createWebhookService(deps: ServiceDeps): WebhookService {
  const { database, clock, bus, config, logger } = deps;
  // One per service: the staff streams' failed reads wait for the database together (src/events/read-recovery.ts).
  const recovery = createReadRecovery({ onBusResume: (handler) => bus.onResume(handler), probe: database.check, clock, logger });
  const db = database.db;
  // Sealed with the key the notification service registered for the outbox (sealed-body.ts), built before this.
  const vault = { seal: sealSecret, open: openSecret };
  useBootstrapSite(config.vendorSiteId);
  // A URL naming a refused address, or this machine, is refused when it is given; a name is checked at each connection.
  const addresses = addressPolicy(config.endpointAllowedNetworks);
  const hostRefusal = (url: URL) => literalRefusal(url, addresses);

  async function own(siteId: string, id: string): Promise<EndpointRow> {
    const row = await findEndpoint(db, id, siteId);
    if (!row) throw notFound();
    return row;
  }

  /**
   * Before a test, a redelivery or a recover the merchant asked for: a disabled endpoint sends nothing (422, where
   * the answer used to say "due now"); a throttle ends, since the merchant asking to send now outranks the
   * Retry-After its receiver gave (else "due now" was a wait of up to a day).
   */
  async function sendableNow(endpoint: EndpointRow): Promise<void> {
    if (Number(endpoint.enabled) !== 1) throw new DomainError('validation_failed', 'The endpoint is disabled: enable it first (PATCH {"enabled": true}).', { field: 'enabled', errors: [{ field: 'enabled', message: 'the endpoint is disabled.' }] });
    if (endpoint.throttled_until != null) await updateEndpoint(db, endpoint.id, endpoint.site_id, { throttled_until: null });
  }

  /** Now, and the asking request's `traceparent`: the deliveries it makes due are sent under its trace. */
  const askedNow = () => ({ now: clock.now(), traceParent: activeTraceParent() });

  /** After commit: the dispatcher wakes for these deliveries' endpoints, live streams see the change. */
  function announce(rows: Array<{ id: string; endpointId: string; siteId: string }>): void {
    if (rows.length === 0) return;
    bus.publish('notificationQueued', { ids: rows.map((r) => r.id), outbox: false, endpoints: [...new Set(rows.map((r) => r.endpointId))] });
    for (const row of rows) bus.publish('webhookDeliveryChanged', { deliveryId: row.id, endpointId: row.endpointId, siteId: row.siteId });
  }

  return {
    async create(siteId, input) {
      const fields = parseEndpointInput(input, false, hostRefusal);
      const existing = await listEndpoints(db, { siteId, limit: ENDPOINTS_PER_SITE_MAX });
      if (existing.length >= ENDPOINTS_PER_SITE_MAX) throw new DomainError('validation_failed', `A site has at most ${ENDPOINTS_PER_SITE_MAX} endpoints.`, { field: 'url', errors: [{ field: 'url', message: `a site has at most ${ENDPOINTS_PER_SITE_MAX} endpoints.` }] });
      const now = clock.now();
      const secret = newSecret();
      const row: EndpointRow = {
        id: randomId('ep_'),
        site_id: siteId,
        url: fields.url!,
        description: fields.description ?? '',
        event_types: JSON.stringify(fields.eventTypes ?? []),
        enabled: fields.enabled === false ? 0 : 1,
        secret_sealed: vault.seal(secret),
        previous_secret_sealed: null,
        previous_secret_until: null,
        older_secret_sealed: null,
        older_secret_until: null,
        disabled_reason: fields.enabled === false ? DISABLED_BY_SITE.created : null,
        failing_since: null,
        throttled_until: null,
        created_at: now,
        updated_at: now,
      };
      await insertEndpoint(db, row);
      return { ...toEndpoint(row, now), secret };
    },

    async list(siteId) {
      const now = clock.now();
      return (await listEndpoints(db, { siteId, limit: ENDPOINTS_PER_SITE_MAX })).map((row) => toEndpoint(row, now));
    },

    async get(siteId, id) {
      return toEndpoint(await own(siteId, id), clock.now());
    },

    async update(siteId, id, input) {
      const fields = parseEndpointInput(input, true, hostRefusal);
      const current = await own(siteId, id);
      const now = clock.now();
      // `enabled: true` is the merchant saying the receiver is fixed, whether or not the endpoint was disabled: a
      // throttle from a Retry-After (up to a day) and a failure run end too. A new url is a new receiver: the old
      // one's Retry-After, failures and failure run do not hold back what is kept for it.
      const enabling = fields.enabled === true;
      // A new url on an endpoint that stays enabled: its kept deliveries go to the new receiver now.
      const movedWhileEnabled = fields.url !== undefined && fields.url !== current.url && fields.enabled !== false && Number(current.enabled) === 1;
      await updateEndpoint(db, id, siteId, {
        ...(fields.url !== undefined ? { url: fields.url, throttled_until: null } : {}),
        // The run of failures was the old receiver's too: carried over, the new one's first failure disabled it.
        ...(fields.url !== undefined && fields.url !== current.url ? { failing_since: null } : {}),
        ...(fields.description !== undefined ? { description: fields.description } : {}),
        ...(fields.eventTypes !== undefined ? { event_types: JSON.stringify(fields.eventTypes) } : {}),
        ...(fields.enabled === false && Number(current.enabled) === 1 ? { enabled: 0, disabled_reason: DISABLED_BY_SITE.set } : {}),
        ...(enabling ? { enabled: 1, disabled_reason: null, failing_since: null, throttled_until: null } : {}),
        updated_at: now,
      });
      // Enabled, or moved while enabled: the deliveries it kept are due now (FAILED ones wait for recover). Its
      // dispatcher wakes for it once, with those or, when none is due now, to wait for the next that will be.
      if (enabling || movedWhileEnabled) {
        const due = await pendingDueNow(db, id, { now, traceParent: activeTraceParent() });
        if (due.length > 0) announce(due.map((deliveryId) => ({ id: deliveryId, endpointId: id, siteId })));
        else bus.publish('notificationQueued', { ids: [], outbox: false, endpoints: [id] });
      }
      return toEndpoint(await own(siteId, id), now);
    },

    async remove(siteId, id) {
      const removed = await transaction(db, (trx) => deleteEndpoint(trx, id, siteId));
      if (!removed) throw notFound();
    },

    async rotateSecret(siteId, id) {
      for (;;) {
        const current = await own(siteId, id);
        const now = clock.now();
        const secret = newSecret();
        // Each replaced secret signs for 24 hours from its replacement: a rotation inside a first one's 24 hours keeps
        // the first one's old secret as the older one (the receiver may still hold it), so three sign at most.
        const previousRuns = current.previous_secret_sealed !== null && Number(current.previous_secret_until) > now;
        const rotated = await rotateEndpointSecret(db, id, current.secret_sealed, {
          secret_sealed: vault.seal(secret),
          previous_secret_sealed: current.secret_sealed,
          previous_secret_until: now + ROTATION_OVERLAP_MS,
          older_secret_sealed: previousRuns ? current.previous_secret_sealed : null,
          older_secret_until: previousRuns ? current.previous_secret_until : null,
          updated_at: now,
        });
        // Two rotations at once: the one that lost read a secret that is no longer current; it rotates again.
        if (rotated) return { secret, previousSecretExpiresAt: now + ROTATION_OVERLAP_MS };
      }
    },

    async checkVaultKey() {
      // As the vault's card data is checked (payment-service.ts): a database holding endpoints and no card token
      // started under another key, said ready, failed every delivery on a secret it could not open until each endpoint
      // was disabled, and sealed new secrets under the wrong key beside the old (a disaster-recovery review).
      refuseUnopenable(await anySealedSecret(db), vault.open, "the merchants' endpoint secrets were", sealingKeyId());
    },

    async deliveries(siteId, id, query) {
      await own(siteId, id);
      return deliveryPage(db, id, query);
    },

    async redeliver(siteId, endpointId, deliveryId) {
      const noDelivery = () => new DomainError('not_found', 'No delivery has that id.');
      const row = await findDelivery(db, deliveryId);
      if (!row || row.site_id !== siteId || row.endpoint_id !== endpointId) throw noDelivery();
      await sendableNow(await own(siteId, endpointId));
      // Decided on the delivery as it is in the transaction, locked, not as read above: an attempt recorded in between
      // made one read in flight DELIVERED, and no update applied (the redeliver was lost). Delivered, failed or
      // dropped: a new round of the schedule. Waiting for its next attempt: that attempt now (a merchant who fixed
      // the receiver should not wait up to 10 hours). In flight: sent again once that attempt is recorded, whatever
      // its outcome (it may have left before the receiver was fixed).
      // The answer is the delivery as this left it, read before the dispatchers hear of it: read after, it was at
      // times already leased again (due "in 15 s") or delivered, by whichever dispatcher was quicker than the read.
      const { due, answer } = await transaction(db, async (trx) => {
        const asked = askedNow();
        const current = await findDelivery(trx, deliveryId, database.caps.skipLocked);
        if (!current) throw noDelivery();
        let made: string[] = [];
        if (current.status !== 'PENDING') made = await makeDue(trx, { endpointId, deliveryId }, asked);
        else if (current.lease_until != null && Number(current.lease_until) > asked.now) await redeliverInFlight(trx, endpointId, deliveryId, asked);
        else made = await pendingDueNow(trx, endpointId, asked, deliveryId);
        return { due: made, answer: (await oneDelivery(db, deliveryId, trx))! };
      });
      announce(due.map((id) => ({ id, endpointId: row.endpoint_id, siteId })));
      return answer;
    },

    async recover(siteId, id, input) {
      const since = parseRecoverInput(input, clock.now());
      await sendableNow(await own(siteId, id));
      const due = await makeDue(db, { endpointId: id, since }, askedNow());
      announce(due.map((deliveryId) => ({ id: deliveryId, endpointId: id, siteId })));
      return { recovered: due.length };
    },

    async sendTest(siteId, id) {
      await sendableNow(await own(siteId, id));
      const now = clock.now();
      const deliveryId = timeOrderedId('dlv_');
      await insertDeliveries(db, [
        { id: deliveryId, message_id: timeOrderedId('msg_'), endpoint_id: id, site_id: siteId, path: TEST_PATH, body: testBody(id, siteId, now), status: 'PENDING', attempt_count: 0, next_attempt_at: now, lease_owner: null, lease_until: null, created_at: now, updated_at: now, delivered_at: null, last_error: null, trace_parent: activeTraceParent() },
      ]);
      // As redeliver's: the test event as it was made, not as a quicker dispatcher has it by the time it is read.
      const answer = (await oneDelivery(db, deliveryId))!;
      announce([{ id: deliveryId, endpointId: id, siteId }]);
      return answer;
    },

    allEndpoints: (query = {}) => endpointPage(db, query, clock.now()),

    async endpoint(id) {
      const row = await findEndpoint(db, id, null);
      return row ? toEndpoint(row, clock.now()) : null;
    },

    delivery: (id) => oneDelivery(db, id),

    async endpointDeliveries(endpointId, query) {
      if (!(await findEndpoint(db, endpointId, null))) throw notFound();
      return deliveryPage(db, endpointId, query);
    },

    deliveryEvents(filter = {}) {
      return streamOf(bus, 'webhookDeliveryChanged', {
        load: async (event) => {
          if (filter.siteId && event.siteId !== filter.siteId) return null;
          if (filter.endpointId && event.endpointId !== filter.endpointId) return null;
          return oneDelivery(db, event.deliveryId);
        },
        replay: async (since) => viewsOf(await deliveriesChangedSince(db, since, filter, REPLAY_MAX), (id) => oneDelivery(db, id)),
        clock,
        recovery,
      });
    },

    disabledEvents() {
      return streamOf(bus, 'webhookEndpointDisabled', {
        load: async (event) => event,
        replay: async (since) =>
          (await endpointsDisabledSince(db, since, Object.values(DISABLED_BY_SITE), REPLAY_MAX)).map((row) => ({
            endpointId: row.id,
            siteId: row.site_id,
            url: row.url,
            reason: row.disabled_reason ?? '',
            at: Number(row.updated_at),
          })),
        clock,
        recovery,
      });
    },
  };
}
