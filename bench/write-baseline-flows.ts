/**
 * The durable work of one request of each write path, as plain statements (bench/write-baseline.ts says how they
 * were matched to the gateway's). The SQL text is what kysely compiles the repositories' queries to (the
 * `?` placeholders become `$n` on PostgreSQL), in the order and the transactions the services run them:
 * src/orders/order-service.ts create + pay (vendor_card), src/payments/payment-service.ts create through
 * withIdempotency and the pay flow (reserve tx → sandbox processor → record tx), src/risk/decision-service.ts decide.
 * The values are computed as the gateway computes them (random tokens, ids random or time-ordered as the gateway's
 * are (timeOrderedId), SHA-256 token hashes, AES-256-GCM sealing and HMAC fingerprint of the card, the rules
 * engine's decision), so each row written is the same size and lands where the gateway's would.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { parseAccountRequest } from '../src/risk/account-requests.ts';
import { timeOrderedId } from '../src/kernel/tokens.ts';
import type { OrderInput } from '../src/orders/order-input.ts';
import { VELOCITY_WINDOW_MS } from '../src/risk/rules/behaviour-rules.ts';
import { decide } from '../src/risk/rules/engine.ts';
import { requestFacts } from '../src/risk/rules/facts.ts';

export type Row = Record<string, unknown>;

export const SITE_ID = 'site_bench';
export const API_KEY = 'bench-api-key-0123456789abcdef';
/** The gateway's bootstrap site (VENDOR_SITE_ID), as bench/payments.ts and bench/decisions.ts run it. */
export const GATEWAY_ENV = { VENDOR_SITE_ID: SITE_ID, VENDOR_API_KEY: API_KEY, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' };
export const AUTH = { authorization: `Basic ${Buffer.from(`${SITE_ID}:${API_KEY}`).toString('base64')}`, 'content-type': 'application/json' };

/** One connection's way to run a statement; `tx` runs `body` between begin and commit on one connection. */
export interface Runner {
  readonly multipleConnections: boolean;
  q(sql: string, params: unknown[]): Promise<{ rows: Row[]; changes: number }>;
  tx<T>(body: (trx: Runner) => Promise<T>): Promise<T>;
}

export const SQL = {
  findSite: 'select * from "sites" where "site_id" = ?',
  orderByEmailKey: 'select * from "orders" where "email_key" = ?',
  nextOrderNumber: 'update "counters" set "value" = "value" + ? where "name" = ? returning "value"',
  insertOrder:
    'insert into "orders" ("order_number", "email", "email_key", "name", "size", "font", "thread", "stitch_text", "status", "hold_until", "created_at", "updated_at", "paid_at", "payment_method", "cancelled_at", "cancel_reason") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *',
  insertPayToken: 'insert into "order_pay_tokens" ("token_hash", "order_number", "created_at", "origin") values (?, ?, ?, ?)',
  findOrder: 'select * from "orders" where "order_number" = ?',
  payTokenHashes: 'select "token_hash" from "order_pay_tokens" where "order_number" = ?',
  markPaid:
    'update "orders" set "status" = ?, "paid_at" = ?, "payment_method" = ?, "updated_at" = ?, "version" = "version" + ? where "order_number" = ? and "status" = ? and "hold_until" > ? returning *',
  insertOrderPayment: 'insert into "order_payments" ("id", "order_number", "method", "amount_cents", "currency", "status", "created_at") values (?, ?, ?, ?, ?, ?, ?)',
  insertKey:
    'insert into "idempotency_keys" ("site_id", "idem_key", "fingerprint", "state", "payment_id", "response_status", "response_body", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  insertToken:
    'insert into "vault_tokens" ("token_hash", "kind", "site_id", "order_number", "sealed", "fingerprint", "bin", "last_four", "brand", "exp_month", "exp_year", "cvc_sealed", "extra", "customer_id", "multi_use", "network_token_status", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  reserveToken: 'update "vault_tokens" set "used_by_payment" = ? where "token_hash" = ? and "multi_use" = ? and "used_by_payment" is null',
  insertPayment:
    'insert into "payments" ("id", "site_id", "order_id", "order_number", "amount", "currency", "method", "status", "decision", "token_hash", "charge_id", "refunded_at", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  bindKey: 'update "idempotency_keys" set "payment_id" = ? where "site_id" = ? and "idem_key" = ? and "state" = ? and "updated_at" = ? and "payment_id" is null',
  findPayment: 'select * from "payments" where "id" = ?',
  findToken: 'select * from "vault_tokens" where "token_hash" = ?',
  findCharge: 'select "outcome", "charge_id" from "sandbox_charges" where "idem_key" = ?',
  insertCharge: 'insert into "sandbox_charges" ("idem_key", "charge_id", "outcome", "amount", "currency", "refunded_amount", "created_at") values (?, ?, ?, ?, ?, ?, ?)',
  updatePayment: 'update "payments" set "status" = ?, "charge_id" = ?, "updated_at" = ? where "id" = ? returning *',
  eraseCvc: 'update "vault_tokens" set "cvc_sealed" = ? where "token_hash" = ? and "cvc_sealed" is not null',
  settleKey: 'update "idempotency_keys" set "state" = ?, "payment_id" = ?, "response_body" = ?, "updated_at" = ? where "site_id" = ? and "idem_key" = ?',
  history: `select
      (select count(*) from account_requests where site_id = ? and account_id = ? and event_time > ? and event_time <= ?) as account_attempts,
      (select count(*) from account_requests where site_id = ? and customer_ip = ? and event_time > ? and event_time <= ?) as ip_attempts,
      exists (select 1 from account_requests where site_id = ? and account_id = ? and event_time <= ?) as account_seen,
      exists (select 1 from account_requests where site_id = ? and account_id = ? and customer_ip = ? and event_time <= ?) as ip_used`,
  insertRequest:
    'insert into "account_requests" ("id", "site_id", "kind", "event_id", "account_id", "event_time", "customer_ip", "request", "vendor_decision", "reason_codes", "recommendations", "fired_rules", "correlation_id", "review_status", "reviewed_by", "review_comments", "reviewed_at", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  changeAccount:
    'update "platform_accounts" set "status" = ?, "reasons" = ?, "recommendations" = ?, "updated_at" = ? where "site_id" = ? and "account_id" = ? and "status" <> ?',
  insertAccount:
    'insert into "platform_accounts" ("site_id", "account_id", "status", "reasons", "recommendations", "updated_at") values (?, ?, ?, ?, ?, ?) on conflict ("site_id", "account_id") do nothing',
  insertNotification:
    'insert into "outbox_notifications" ("id", "site_id", "path", "body", "status", "subject", "attempt_count", "next_attempt_at", "lease_owner", "lease_until", "created_at", "updated_at", "delivered_at", "last_error") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  endpointsOfSite: 'select "id", "event_types" from "webhook_endpoints" where "site_id" = ?',
} as const;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/**
 * The caller's credentials checked as src/sites/site-service.ts's authenticate does, for every platform request: the
 * site's row read, the presented key's SHA-256 compared with its stored hash in constant time.
 */
async function authenticate(r: Runner, siteId: string): Promise<void> {
  const row = (await r.q(SQL.findSite, [siteId])).rows[0];
  const presented = Buffer.from(sha256(API_KEY), 'hex');
  const stored = Buffer.from(String(row?.api_key_hash ?? ''), 'hex');
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored)) throw new Error('not authenticated');
}

/** One order created and paid with the demo card: create (tx), then pay (tx: its reads, checks and writes), as order-service.ts. */
export async function orderCreateAndPay(r: Runner, holdSeconds: number, seq: string): Promise<void> {
  const { number, payToken } = await orderCreate(r, holdSeconds, { email: `baseline-${seq}@example.com`, name: 'Bench Mark', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'FAST' });
  await orderPay(r, number, payToken);
}

/** POST /api/orders: the e-mail's key checked free, the next number taken, the order and its pay token's hash written. */
export async function orderCreate(r: Runner, holdSeconds: number, order: OrderInput): Promise<{ number: number; payToken: string }> {
  const key = order.email.trim().toLowerCase();
  const payToken = randomToken();
  const now = Date.now();
  let taken: number | null = null;
  if (r.multipleConnections) {
    if ((await r.q(SQL.orderByEmailKey, [key])).rows.length > 0) throw new Error('duplicate email');
    taken = Number((await r.q(SQL.nextOrderNumber, [1, 'order_number'])).rows[0]!.value);
  }
  const number = await r.tx(async (trx) => {
    const n = taken ?? Number((await trx.q(SQL.nextOrderNumber, [1, 'order_number'])).rows[0]!.value);
    await trx.q(SQL.insertOrder, [n, order.email, key, order.name, order.size, order.font, order.thread, order.stitchText, 'awaiting payment', now + holdSeconds * 1000, now, now, null, null, null, null]);
    await trx.q(SQL.insertPayToken, [sha256(payToken), n, now, 'create']);
    return n;
  });
  return { number, payToken };
}

/** POST /api/orders/{n}/pay with the demo card: the order read, its token checked and the order marked paid in one transaction. */
export async function orderPay(r: Runner, number: number, payToken: string): Promise<void> {
  await r.tx(async (trx) => {
    const [order, hashes] = await Promise.all([trx.q(SQL.findOrder, [number]), trx.q(SQL.payTokenHashes, [number])]);
    const presented = Buffer.from(sha256(payToken), 'hex');
    let match = false;
    for (const row of hashes.rows) match = timingSafeEqual(presented, Buffer.from(String(row.token_hash), 'hex')) || match;
    if (!match || order.rows[0]?.status !== 'awaiting payment') throw new Error('order not payable');
    const paidAt = Date.now();
    const paid = await trx.q(SQL.markPaid, ['received', paidAt, 'vendor_card', paidAt, 1, number, 'awaiting payment', paidAt]);
    if (paid.rows.length !== 1) throw new Error('not paid');
    await trx.q(SQL.insertOrderPayment, [timeOrderedId('pay_'), number, 'vendor_card', 0, 'USD', 'succeeded', paidAt]);
  });
}

/** The vault's sealing (src/payments/vault-crypto.ts): HKDF subkeys, `v2.<id>.` + base64url(iv ‖ tag ‖ body). */
export function vaultCrypto(master: Buffer) {
  const hkdf = (label: string, length: number) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, length));
  const id = hkdf('sleeve-vault key id v1', 6).toString('hex');
  const sealKey = hkdf('sleeve-vault seal v1', 32);
  const hashKey = hkdf('sleeve-vault fingerprint v1', 32);
  const prefix = `v2.${id}.`;
  return {
    seal(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv, { authTagLength: 16 });
      cipher.setAAD(Buffer.from(prefix.slice(0, -1), 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed: string): string {
      const raw = Buffer.from(sealed.slice(prefix.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(prefix.slice(0, -1), 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    fingerprint: (cardNumber: string) => createHmac('sha256', hashKey).update(cardNumber).digest('hex'),
  };
}

export const PAYMENT_CARD = { number: '4242424242424242', month: 12, year: 2030, holder: 'Bench Mark', cvc: '123' };

/**
 * One POST /api/payments with a fresh Idempotency-Key and an inline card: the site's credentials, claim the key, reserve (vault the card,
 * spend its token, insert the payment, bind the key, read it back), the sandbox processor (open the card, look up
 * and record the charge), record (the payment's outcome, the CVC erased, the key's stored answer).
 */
export async function payment(r: Runner, crypto: ReturnType<typeof vaultCrypto>, siteId: string, canonicalBody: string, key: string): Promise<void> {
  await authenticate(r, siteId);
  const fingerprint = sha256(canonicalBody);
  const claimedAt = Date.now();
  await r.q(SQL.insertKey, [siteId, key, fingerprint, 'processing', null, null, null, claimedAt, claimedAt]);
  const card = PAYMENT_CARD;
  const payment = await r.tx(async (trx) => {
    const now = Date.now();
    const id = timeOrderedId('pay_');
    const token = `tok_${randomToken(24)}`;
    const tokenHash = sha256(token);
    await trx.q(SQL.insertToken, [
      tokenHash, 'card', null, null, crypto.seal(JSON.stringify({ token, cardNumber: card.number, cardHolderName: card.holder })),
      crypto.fingerprint(card.number), card.number.slice(0, 8), card.number.slice(-4), 'VISA', card.month, card.year,
      crypto.seal(card.cvc), null, null, 0, 'NONE', now, now,
    ]);
    if ((await trx.q(SQL.reserveToken, [id, tokenHash, 0])).changes !== 1) throw new Error('token not reserved');
    await trx.q(SQL.insertPayment, [id, siteId, 'bench-order', null, 1999, 'USD', 'card', 'pending', 'APPROVE', tokenHash, null, null, now, now]);
    if ((await trx.q(SQL.bindKey, [id, siteId, key, 'processing', claimedAt])).changes !== 1) throw new Error('key not bound');
    return (await trx.q(SQL.findPayment, [id])).rows[0]!;
  });
  const id = String(payment.id);
  const tokenRow = (await r.q(SQL.findToken, [payment.token_hash])).rows[0]!;
  const sealed = JSON.parse(crypto.open(String(tokenRow.sealed))) as { cardNumber: string };
  if (sealed.cardNumber !== card.number || crypto.open(String(tokenRow.cvc_sealed)) !== card.cvc) throw new Error('vault did not open');
  if ((await r.q(SQL.findCharge, [id])).rows.length > 0) throw new Error('charged before');
  const chargeId = timeOrderedId('ch_');
  await r.q(SQL.insertCharge, [id, chargeId, 'succeeded', 1999, 'USD', 0, Date.now()]);
  const now = Date.now();
  await r.tx(async (trx) => {
    const row = (await trx.q(SQL.updatePayment, ['succeeded', chargeId, now, id])).rows[0]!;
    await trx.q(SQL.eraseCvc, [null, payment.token_hash]);
    const body = { id, orderId: row.order_id, amount: Number(row.amount), currency: row.currency, status: row.status, decision: row.decision, createdAt: new Date(Number(row.created_at)).toISOString() };
    await trx.q(SQL.settleKey, ['done', id, JSON.stringify(body), Date.now(), siteId, key]);
  });
}

/**
 * One profile-access decision (decision-service.ts): the site's credentials, then in one transaction the history,
 * the request, the account's state.
 */
export async function decision(r: Runner, siteId: string, eventId: string, body: unknown, publicUrl: string): Promise<void> {
  await authenticate(r, siteId);
  const request = parseAccountRequest('profile-access', body);
  const ip = requestFacts(request).customerIp;
  await r.tx(async (trx) => {
    const now = Date.now();
    const from = request.eventTime - VELOCITY_WINDOW_MS;
    const until = request.eventTime;
    const acc = request.accountId;
    const h = (await trx.q(SQL.history, [siteId, acc, from, until, siteId, ip ?? '', from, until, siteId, acc, until, siteId, acc, ip ?? '', until])).rows[0]!;
    const history = {
      accountAttempts: Number(h.account_attempts),
      ipAttempts: ip ? Number(h.ip_attempts) : 0,
      accountSeen: Boolean(Number(h.account_seen)),
      ipUsedByAccount: ip !== null && Boolean(Number(h.ip_used)),
    };
    const d = decide(request, history);
    const reasons = JSON.stringify(d.reasonCodes);
    const recommendations = JSON.stringify(d.recommendations);
    await trx.q(SQL.insertRequest, [
      timeOrderedId('req_'), siteId, 'profile-access', eventId, acc, request.eventTime, ip, JSON.stringify(request.body), d.vendorDecision,
      reasons, recommendations, JSON.stringify(d.firedRules), `corr_${randomUUID()}`, d.vendorDecision === 'NOT_REVIEWED' ? 'AWAITING_REVIEW' : null, null, null, null, now,
    ]);
    const status = ({ APPROVE: 'ACTIVATE', DECLINE: 'DEACTIVATE', VERIFICATION_REQUIRED: 'VERIFICATION_REQUIRED', NOT_REVIEWED: 'NOT_REVIEWED' } as const)[d.vendorDecision];
    const change = [status, reasons, recommendations, now, siteId, acc, status];
    const changed =
      (await trx.q(SQL.changeAccount, change)).changes === 1 ||
      (await trx.q(SQL.insertAccount, [siteId, acc, status, reasons, recommendations, now])).changes === 1 ||
      (await trx.q(SQL.changeAccount, change)).changes === 1;
    if (!changed) return;
    const link = `${publicUrl}/admin/accounts/${encodeURIComponent(acc)}?site=${encodeURIComponent(siteId)}`;
    const notice = { timestamp: Math.floor(now / 1000), type: 'VENDOR_ACCOUNT_STATUS_UPDATE', accountId: acc, vendorDecision: status, reasons: d.reasonCodes, recommendations: d.recommendations, linkToAccountInDashboard: link };
    await trx.q(SQL.insertNotification, [timeOrderedId('msg_'), siteId, '/accountupdatenotification', JSON.stringify(notice), 'PENDING', acc, 0, now, null, null, now, now, null, null]);
    await trx.q(SQL.endpointsOfSite, [siteId]);
  });
}

/** The body bench/payments.ts sends, every request the same (only the Idempotency-Key changes). */
export const PAYMENT_BODY = JSON.stringify({
  orderId: 'bench-order',
  amount: 1999,
  currency: 'USD',
  channel: 'web',
  customer: { email: 'bench@example.com', firstName: 'Bench', lastName: 'Mark' },
  paymentMethod: { type: 'card', card: { number: PAYMENT_CARD.number, expirationMonth: PAYMENT_CARD.month, expirationYear: PAYMENT_CARD.year, holderName: PAYMENT_CARD.holder, cvc: PAYMENT_CARD.cvc } },
});

/** Sorted keys, as idempotency-service.ts canonicalJson: what the key's fingerprint hashes. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
export const PAYMENT_CANONICAL = canonical(JSON.parse(PAYMENT_BODY));

const START = Date.UTC(2026, 10, 22, 15, 0, 0);

/**
 * bench/decisions.ts's profile access request number `seq` (500 accounts, 250 IPs), but one second of eventTime
 * apart instead of 10 ms, and each load (`epoch`: warm-up 0, then one per round) a month after the one before.
 * bench/decisions.ts's requests crowd the rules' 10-minute velocity window, so the share of DECLINEs (which write
 * no notification) grows with the number of requests a load makes, and the faster side would do less work per
 * request. Here each account and IP asks a few times per window: past the first requests the mix is steady
 * (APPROVE, and VERIFICATION_REQUIRED every 7th, each change of an account's status a notification) however many
 * requests a load makes.
 */
export function decisionBody(seq: number, epoch = 0) {
  const verified = { sent: true, verified: seq % 7 !== 0 };
  return {
    accountId: `acct-${seq % 500}`,
    eventTime: START + epoch * 30 * 86_400_000 + seq * 1000,
    accountOwner: { email: `user${seq % 500}@example.com`, firstName: 'Bench', lastName: 'Mark' },
    connectionInformation: { customerIP: `10.0.${seq % 250}.${(seq * 7) % 250}`, userAgent: 'bench' },
    newEmail: { email: `user${seq % 500}@example.com`, emailVerification: verified },
    newPhone: { phone: '+15550100', smsVerified: verified },
    ...(seq % 5 === 0 ? { newAddress: { address1: '1 Main St', city: 'Austin', country: 'US' }, newPaymentMethods: { creditCard: { bin: '424242', lastFourDigits: '4242' } } } : {}),
  };
}
