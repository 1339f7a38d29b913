/**
 * Card and wallet pay of a sleeve order (document 1 §3, docs/platform.md#pay-page-tokens): the pay page's token path authorized by the
 * payToken, $1.00 through the payments service, each sandbox card through REST pay and GraphQL payOrder, 402
 * declined (still payable), 502 payment_error / payment_unknown (a retry never charges twice), alreadyPaid,
 * single-use order-bound tokens, and the refund when staff cancel a paid order.
 */
import { describe, expect, it } from 'vitest';
import { PAYMENTS_POLL_MS } from '../../src/payments/reconciliation-job.ts';
import type { TestGateway } from '../support/gateway.ts';
import { card, CARDS, paymentsGateway, sandboxCharges } from './support.ts';

async function cardToken(t: TestGateway, orderNumber: string, payToken: string, number: string = CARDS.ok) {
  const res = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(number), cvc: '123' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

const restPay = (t: TestGateway, orderNumber: string, body: Record<string, unknown>) => t.rest('POST', `/api/orders/${orderNumber}/pay`, body);

const PAY = `mutation($n: ID!, $input: PayInput!) { payOrder(orderNumber: $n, input: $input) {
  __typename ... on PayResult { status alreadyPaid } ... on ApiError { code retryable field } } }`;

async function gqlPay(t: TestGateway, orderNumber: string, input: Record<string, unknown>) {
  const res = await t.gql(PAY, { n: orderNumber, input });
  return res.data.payOrder as Record<string, unknown>;
}

describe('the pay page token path', () => {
  it('answers { token, cardInfo } for the order’s payToken and 404 for a wrong one, never taking a site key', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const ok = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card() });
    expect(ok.status).toBe(200);
    expect(ok.body.cardInfo).toMatchObject({ lastFourDigits: '4242', cardBrand: 'VISA' });
    const wrong = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: 'nope', ...card() }, { authorization: t.siteAuthorization });
    expect(wrong.status).toBe(404);
    const bad = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card('4242424242424241') });
    expect(bad.body).toMatchObject({ ok: false, code: 'bad_request', field: 'cardNumber' });
    // A pay-page token is no site's token: detokenize with the site key does not know it.
    expect((await t.rest('POST', '/v1/tokenization/detokenize', { token: ok.body.token }, { authorization: t.siteAuthorization })).status).toBe(400);
  });
});

describe('a card on the pay page', () => {
  it('is refused once its expiry month has passed (422, field expirationYear), and nothing is kept in the vault', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const now = new Date(t.clock.now());
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const before = month === 1 ? { expirationMonth: 12, expirationYear: year - 1 } : { expirationMonth: month - 1, expirationYear: year };
    const tokens = async () => Number((await t.gateway.database.db.selectFrom('vault_tokens').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const kept = await tokens();
    const expired = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.ok, before) });
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({ ok: false, code: 'validation_failed', field: 'expirationYear', error: expect.stringMatching(/expired/u) });
    expect(JSON.stringify(expired.body)).not.toContain(String(before.expirationYear));
    expect(await tokens()).toBe(kept);
    // A card is good through the last day of its expiry month.
    const thisMonth = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.ok, { expirationMonth: month, expirationYear: year }) });
    expect(thisMonth.status).toBe(200);
  });
});

describe.each(['rest', 'graphql'] as const)('paying by card through %s', (door) => {
  const pay = async (t: TestGateway, orderNumber: string, payToken: string, method: string, token: string) => {
    if (door === 'rest') {
      const res = await restPay(t, orderNumber, { t: payToken, method, token });
      return { status: res.status, code: res.body.code as string | undefined, alreadyPaid: res.body.alreadyPaid as boolean | undefined, retryable: res.body.retryable };
    }
    const r = await gqlPay(t, orderNumber, { t: payToken, method: method.toUpperCase(), token });
    const code = r.code ? String(r.code).toLowerCase() : undefined;
    const status = r.__typename === 'PayResult' ? 200 : { declined: 402, payment_error: 502, payment_unknown: 502, bad_request: 400 }[code!] ?? 0;
    return { status, code, alreadyPaid: r.alreadyPaid as boolean | undefined, retryable: r.retryable };
  };

  it('4242…: paid, $1.00 USD charged once; paying again answers alreadyPaid and charges nothing', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const token = await cardToken(t, orderNumber, payToken);
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 200, alreadyPaid: false });
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 200, alreadyPaid: true });
    const charges = await sandboxCharges(t);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 100, currency: 'USD', outcome: 'succeeded' });
    const lookup = await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`);
    expect(lookup.body.status).toBe('received');
  });

  it('the declined card: 402 declined, the order stays payable, the token is spent, another card pays', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const declined = await cardToken(t, orderNumber, payToken, CARDS.declined);
    expect(await pay(t, orderNumber, payToken, 'card', declined)).toMatchObject({ status: 402, code: 'declined', retryable: false });
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status).toBe('awaiting payment');
    // Single-use: the same token is refused the second time.
    expect(await pay(t, orderNumber, payToken, 'card', declined)).toMatchObject({ status: 400, code: 'bad_request' });
    const good = await cardToken(t, orderNumber, payToken);
    expect(await pay(t, orderNumber, payToken, 'card', good)).toMatchObject({ status: 200, alreadyPaid: false });
  });

  it('the processor-error card: 502 payment_error, retryable, nothing charged; the order stays payable', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const token = await cardToken(t, orderNumber, payToken, CARDS.processorError);
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 502, code: 'payment_error', retryable: true });
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 502, code: 'payment_error' });
    expect(await sandboxCharges(t)).toHaveLength(0);
    const good = await cardToken(t, orderNumber, payToken);
    expect(await pay(t, orderNumber, payToken, 'card', good)).toMatchObject({ status: 200 });
  });

  it('the timeout card: 502 payment_unknown, and the retry pays the order with the one charge made', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const token = await cardToken(t, orderNumber, payToken, CARDS.timeoutAfterCharge);
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 502, code: 'payment_unknown', retryable: true });
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status).toBe('awaiting payment');
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 200, alreadyPaid: false });
    expect(await pay(t, orderNumber, payToken, 'card', token)).toMatchObject({ status: 200, alreadyPaid: true });
    expect(await sandboxCharges(t)).toHaveLength(1);
  });
});

describe('order-bound tokens and the wallet', () => {
  it('refuses another order’s token and a site token; pays with a wallet confirmation', async () => {
    const t = await paymentsGateway();
    const a = await t.createOrder();
    const b = await t.createOrder({ email: 'grace@example.com', name: 'Grace Hopper' });
    const tokenOfA = await cardToken(t, a.orderNumber, a.payToken);
    expect((await restPay(t, b.orderNumber, { t: b.payToken, method: 'card', token: tokenOfA })).body).toMatchObject({ code: 'bad_request', field: 'token' });
    const siteToken = (await t.rest('POST', '/v1/tokenization/tokenize', card(), { authorization: t.siteAuthorization })).body.token;
    expect((await restPay(t, b.orderNumber, { t: b.payToken, method: 'card', token: siteToken })).status).toBe(400);
    // A card token is not a wallet confirmation.
    expect((await restPay(t, b.orderNumber, { t: b.payToken, method: 'wallet', token: tokenOfA })).status).toBe(400);

    const wallet = await t.rest('POST', `/api/orders/${b.orderNumber}/wallet-token`, { t: b.payToken });
    expect(wallet.body.token).toMatch(/^wct_/u);
    const paid = await restPay(t, b.orderNumber, { t: b.payToken, method: 'wallet', token: wallet.body.token });
    expect(paid.status).toBe(200);
    expect(paid.body.alreadyPaid).toBe(false);
    expect((await t.rest('POST', `/api/orders/${b.orderNumber}/wallet-token`, { t: b.payToken })).status).toBe(400);
  });

  it('two concurrent card pays of one order charge once', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const tokens = [await cardToken(t, orderNumber, payToken), await cardToken(t, orderNumber, payToken)];
    const answers = await Promise.all(tokens.map((token) => restPay(t, orderNumber, { t: payToken, method: 'card', token })));
    expect(answers.filter((a) => a.status === 200 && a.body.alreadyPaid === false)).toHaveLength(1);
    const charged = (await sandboxCharges(t)).filter((c) => c.refunded_amount === 0);
    expect(charged).toHaveLength(1);
  });
});

describe('refunds of sleeve orders', () => {
  it('refunds a paid order that staff cancel (document 1: all payments will be refunded)', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    await restPay(t, orderNumber, { t: payToken, method: 'card', token: await cardToken(t, orderNumber, payToken) });
    const cancel = await t.gql('mutation($n: ID!) { cancelOrder(orderNumber: $n, reason: "Out of thread") { status } }', { n: orderNumber }, { token: t.adminToken });
    expect(cancel.data.cancelOrder.status).toBe('CANCELLED');
    const [charge] = await sandboxCharges(t);
    expect(charge!.refunded_amount).toBe(100);
    const payment = await t.gateway.database.db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
    expect(payment.refunded_at).not.toBeNull();
  });

  it('refunds a cancelled order’s charge on the next sweep when the refund at cancel time never happened (a crash)', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    await restPay(t, orderNumber, { t: payToken, method: 'card', token: await cardToken(t, orderNumber, payToken) });
    // The cancel committed, and the process died before it called the processor: no refund was made.
    await t.gateway.database.db.updateTable('orders').set({ status: 'cancelled' }).where('order_number', '=', Number(orderNumber)).execute();
    expect((await sandboxCharges(t))[0]!.refunded_amount).toBe(0);
    await t.clock.advance(PAYMENTS_POLL_MS);
    expect((await sandboxCharges(t))[0]!.refunded_amount).toBe(100);
    const payment = await t.gateway.database.db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
    expect(payment.refunded_at).not.toBeNull();
    // Refunded once: later sweeps find nothing owed.
    await t.clock.advance(PAYMENTS_POLL_MS);
    expect(await sandboxCharges(t)).toHaveLength(1);
  });

  it('refunds a charge that paid no order on the next sweep (the order was paid another way; the refund never happened)', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    await restPay(t, orderNumber, { t: payToken, method: 'card', token: await cardToken(t, orderNumber, payToken) });
    // The state a crash leaves when a charge lands after the order was paid by another way: the payment succeeded,
    // nothing records it as paying the order, and the process died before the immediate refund.
    const db = t.gateway.database.db;
    const payment = await db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
    await db.deleteFrom('order_payments').where('id', '=', payment.id).execute();
    await t.clock.advance(PAYMENTS_POLL_MS);
    expect((await sandboxCharges(t))[0]!.refunded_amount).toBe(100);
    // The order itself is untouched: still paid.
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status).toBe('received');
  });

  it('leaves a paid order’s charge alone', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    await restPay(t, orderNumber, { t: payToken, method: 'card', token: await cardToken(t, orderNumber, payToken) });
    await t.clock.advance(PAYMENTS_POLL_MS * 2);
    expect((await sandboxCharges(t))[0]!.refunded_amount).toBe(0);
  });

  it('refunds the unknown charge of an order whose hold ended before anyone retried', async () => {
    const t = await paymentsGateway();
    const { orderNumber, payToken } = await t.createOrder();
    const token = await cardToken(t, orderNumber, payToken, CARDS.timeoutAfterCharge);
    expect((await restPay(t, orderNumber, { t: payToken, method: 'card', token })).body.code).toBe('payment_unknown');
    await t.clock.advance(5 * 60_000); // the hold ends: cancelled
    await t.clock.advance(PAYMENTS_POLL_MS);
    const [charge] = await sandboxCharges(t);
    expect(charge!.refunded_amount).toBe(100);
    const payment = await t.gateway.database.db.selectFrom('payments').selectAll().executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ status: 'succeeded' });
    expect(payment.refunded_at).not.toBeNull();
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.status).toBe('cancelled');
  });
});
