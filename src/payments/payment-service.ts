/**
 * Payments (docs/platform.md#payments): POST /api/payments with idempotency keys, the sandbox processor behind its
 * port, refunds, and card/wallet pay of sleeve orders (order-charge-service.ts), all through the one pay flow
 * (payment-flow-service.ts). The vault's use cases are `tokens`.
 */
import { DomainError } from '../kernel/errors.ts';
import { checkPaymentRequest, paymentDecision, type PaymentRequest } from './payment-request.ts';
import { expiryProblem } from './card-data.ts';
import type { Order } from '../orders/order.ts';
import type { Db } from '../db/database.ts';
import * as payments from './payment-repository.ts';
import * as vault from './vault-repository.ts';
import { createSandboxProcessor } from './sandbox-processor.ts';
import { tracedProcessor } from './traced-processor.ts';
import { loadVaultKey } from '../kernel/vault-key.ts';
import { createVaultCrypto, refuseUnopenable } from './vault-crypto.ts';
import { hashToken, timeOrderedId } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { checkIdempotencyKey, withIdempotency, type Claim, type StoredResponse } from './idempotency-service.ts';
import { createOrderCharges, type OrderCharges } from './order-charge-service.ts';
import { createReconciliation, type Reconciliation } from './reconciliation-service.ts';
import { createPaymentFlow } from './payment-flow-service.ts';
import type { Site, SiteService } from '../sites/site-service.ts';
import { createTokenizationService, type TokenizationService } from './tokenization-service.ts';
import { createdBody, toPaymentView, type PaymentView } from './payment-view.ts';

export type { PaymentSummary, PaymentView } from './payment-view.ts';
export { toPaymentView } from './payment-view.ts';

export interface PaymentService extends OrderCharges, Reconciliation {
  /** A payment by id; null when unknown. Used by the decision platform's `decideOrder` and the `payment` query. */
  find(id: string): Promise<PaymentView | null>;
  /** POST /api/payments: the created payment (replayed for a repeated Idempotency-Key). */
  create(site: Site, body: unknown, idempotencyKey: string | undefined): Promise<StoredResponse>;
  /** Refunds a succeeded payment in full; refunding again changes nothing. */
  refund(paymentId: string): Promise<PaymentView>;
  /** Document 1: all payments will be refunded — a paid order that staff cancel (StaffCancelRefunds). */
  refundCancelledOrder(order: Order): Promise<void>;
  tokens: TokenizationService;
  /**
   * At start: the vault's keys open what the vault holds, or a ConfigError naming VAULT_KEY and the key id that
   * sealed it. With a wrong key the gateway said ready and answered 500 to every card payment and detokenize.
   */
  checkVaultKey(): Promise<void>;
}

export function createPaymentService(deps: ServiceDeps & { sites: SiteService }): PaymentService {
  const { database, clock, logger } = deps;
  const { db } = database;
  const crypto = createVaultCrypto(loadVaultKey(deps.config));
  const processor = tracedProcessor(createSandboxProcessor(db, clock));
  const flow = createPaymentFlow({ db, clock, logger, crypto, processor });
  const tokens = createTokenizationService({ ...deps, crypto });

  /** 400 on `field` (with `message`, else expiryProblem's) when the card's expiry month has passed. */
  function refuseExpired(expiry: Parameters<typeof expiryProblem>[0], field: string, message?: string): void {
    const expired = expiryProblem(expiry, clock.now());
    if (!expired) return;
    const said = message ?? expired.message;
    throw new DomainError('bad_request', said, { field, errors: [{ field, message: said }] });
  }

  /**
   * The vault token a request pays with: a given token of this site, or (null) the inline card, which is vaulted in
   * the reserve transaction.
   */
  async function givenToken(site: Site, request: PaymentRequest): Promise<{ hash: string; multiUse: boolean } | null> {
    const source = request.source;
    if ('card' in source) return null;
    const row = await vault.findToken(db, hashToken(source.token));
    if (!row || row.site_id !== site.siteId || row.kind !== source.type) {
      throw new DomainError('bad_request', 'paymentMethod.token is not a token of this site.', { errors: [{ field: 'paymentMethod.token', message: 'Unknown token.' }] });
    }
    // As an inline card is (runNew): a card past its expiry month is not charged. An active network token stands in
    // for the card, and the network keeps it valid across the card's renewal.
    if (row.kind === 'card' && row.network_token_status !== 'ACTIVE' && row.exp_month !== null && row.exp_year !== null) {
      refuseExpired({ expirationMonth: row.exp_month, expirationYear: row.exp_year }, 'paymentMethod.token',
        'The card of this token has expired: renew it (POST /v1/account-updater/card/update) or pay with another card.');
    }
    return { hash: row.token_hash, multiUse: row.multi_use === 1 };
  }

  /** The answer once recorded: the created payment, or `payment_unknown` while the processor has not said. */
  function answer(row: payments.PaymentRow): StoredResponse {
    if (row.status === 'unknown') {
      throw new DomainError('payment_unknown', 'The processor did not confirm the payment. Retry with the same Idempotency-Key: it will not charge twice.');
    }
    return createdBody(toPaymentView(row));
  }

  /** Settles the key in the record transaction: its stored answer, or `retryable` while the outcome is unknown. */
  function settleKey(claim: Claim | null) {
    return async (trx: Db, row: payments.PaymentRow): Promise<void> => {
      if (!claim) return;
      const now = clock.now();
      if (row.status === 'unknown') return payments.settleIdempotencyKey(trx, claim.siteId, claim.key, { state: 'retryable', payment_id: row.id, updated_at: now });
      const body = JSON.stringify(createdBody(toPaymentView(row)));
      await payments.settleIdempotencyKey(trx, claim.siteId, claim.key, { state: 'done', payment_id: row.id, response_body: body, updated_at: now });
    };
  }

  /** Reserve (tx) for a new payment: vault an inline card, spend the token, record the key's payment. */
  async function reserveNew(trx: Db, site: Site, request: PaymentRequest, given: { hash: string; multiUse: boolean } | null, claim: Claim | null) {
    const now = clock.now();
    const decision = paymentDecision(request.customerEmail);
    const id = timeOrderedId('pay_');
    const { source } = request;
    const token = 'card' in source ? { hash: hashToken((await tokens.vaultCard(trx, source.card, source.cvc)).token), multiUse: false } : given!;
    // A DECLINE decision charges nothing (issue 5 decisions): the payment is declined before the processor.
    const status = decision === 'DECLINE' ? 'declined' : 'pending';
    if (status === 'pending' && !(await vault.reserveToken(trx, token.hash, id, token.multiUse))) {
      throw new DomainError('bad_request', 'This token was already used: a new token pays once until it is upgraded.', { errors: [{ field: 'paymentMethod.token', message: 'Token already used.' }] });
    }
    const row = { id, site_id: site.siteId, order_id: request.orderId, order_number: null, amount: request.amount, currency: request.currency, method: request.source.type, status, decision, token_hash: token.hash, charge_id: null, refunded_at: null, created_at: now, updated_at: now } as const;
    await payments.insertPayment(trx, row);
    if (claim && !(await payments.bindIdempotencyKey(trx, claim.siteId, claim.key, claim.claimedAt, id))) {
      // The key was taken over while this request was slow: its new holder does the work; reserve nothing here.
      throw new DomainError('unavailable', 'A request with this Idempotency-Key is being processed elsewhere. Retry it with the same key in a moment.', { retryAfter: 1 });
    }
    return (await payments.findPayment(trx, id))!;
  }

  async function runNew(site: Site, request: PaymentRequest, claim: Claim | null): Promise<StoredResponse> {
    // Judged when a payment is made, not when a key's stored answer is replayed after the month has passed.
    if ('card' in request.source) refuseExpired(request.source.card, 'paymentMethod.card.expirationYear');
    const given = await givenToken(site, request);
    const { row } = (await flow.run((trx) => reserveNew(trx, site, request, given, claim), settleKey(claim)))!;
    return answer(row);
  }

  /** A key's earlier attempt reserved a payment whose outcome was not known: the flow asks again under its id. */
  async function reconcile(paymentId: string, claim: Claim): Promise<StoredResponse> {
    const recorded = await flow.run(async (trx) => {
      const seen = (await payments.findPayment(trx, paymentId))!;
      if (seen.status !== 'pending' && seen.status !== 'unknown') return seen;
      // Claimed like every unsettled payment, so the reconciliation sweep and this retry never both record it.
      return (await payments.claimPayment(trx, seen, clock.now())) ?? null;
    }, settleKey(claim));
    if (!recorded) throw new DomainError('unavailable', 'This payment is being reconciled. Retry it with the same Idempotency-Key in a moment.', { retryAfter: 1 });
    return answer(recorded.row);
  }

  async function refund(paymentId: string): Promise<PaymentView> {
    const row = await payments.findPayment(db, paymentId);
    if (!row) throw new DomainError('not_found', 'No payment was found with that id.');
    if (row.status !== 'succeeded' || !row.charge_id) throw new DomainError('bad_request', 'Only a succeeded payment can be refunded.');
    if (row.refunded_at === null) {
      await processor.refund(row.charge_id); // outside any transaction; the processor refunds a charge once
      await payments.markRefunded(db, row.id, clock.now());
      logger.info('payment refunded', { paymentId: row.id });
    }
    return toPaymentView((await payments.findPayment(db, paymentId))!);
  }

  const orderCharges = createOrderCharges({ ...deps, flow, refund });
  const reconciliation = createReconciliation({ ...deps, flow, refund });

  return {
    ...orderCharges,
    ...reconciliation,
    tokens,
    refund,

    async find(id) {
      const row = await payments.findPayment(db, id);
      if (!row) return null;
      return toPaymentView(row, row.token_hash ? await vault.findToken(db, row.token_hash) : undefined);
    },

    async create(site, body, rawKey) {
      const checked = checkPaymentRequest(body);
      if ('errors' in checked) {
        throw new DomainError('bad_request', 'The payment request is not valid: see errors.', { field: checked.errors[0]!.field, errors: checked.errors });
      }
      const key = checkIdempotencyKey(rawKey);
      if (key === null) return runNew(site, checked.request, null);
      return withIdempotency(db, clock, { siteId: site.siteId, key, body, digests: crypto.requestDigests }, (claim) =>
        claim.paymentId ? reconcile(claim.paymentId, claim) : runNew(site, checked.request, claim),
      );
    },

    async checkVaultKey() {
      refuseUnopenable(await vault.anySealedToken(db), (sealed) => crypto.open(sealed), "the vault's card data was", crypto.keyId);
    },

    async refundCancelledOrder(order) {
      const paid = await payments.orderPayments(db, Number(order.orderNumber), ['succeeded']);
      for (const row of paid) if (row.refunded_at === null) await refund(row.id);
    },
  };
}
