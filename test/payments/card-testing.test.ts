/**
 * Card testing on the pay page (docs/edge.md#rate-limits-at-a-venue): a script tries card after card on one held
 * order, each decline telling it which stolen number is dead. The per-subject limit counts pays per order and
 * payToken, and a re-sent create of the same email hands out a fresh payToken for the held order, so it alone let
 * 10 times RATE_LIMIT_SUBJECT_WRITE charges through a minute. The order's own charges in the window are counted
 * where the charge is reserved, whatever token paid for it.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { card, CARDS, paymentsGateway, sandboxCharges } from './support.ts';

const LIMIT = 4;

describe('charges of one order in a window', () => {
  it('are at most RATE_LIMIT_SUBJECT_WRITE, however many payTokens the script collects', async () => {
    const t = await paymentsGateway({ env: { RATE_LIMIT_SUBJECT_WRITE: String(LIMIT) } });
    const { orderNumber, payToken: first } = await t.createOrder();
    const answers: number[] = [];
    // Three payTokens (the create, then two duplicates, as a script gets them), two declined cards each: each
    // token's own count (a card-token and a pay each) stays within LIMIT.
    for (let round = 0; round < 3; round++) {
      let payToken = first;
      if (round > 0) {
        const again = await t.rest('POST', '/api/orders', VALID_ORDER);
        expect(again.body).toMatchObject({ code: 'duplicate', payToken: expect.any(String) });
        payToken = again.body.payToken as string;
      }
      for (let attempt = 0; attempt < 2; attempt++) {
        const token = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.declined), cvc: '123' });
        expect(token.status, JSON.stringify(token.body)).toBe(200);
        const paid = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: token.body.token });
        answers.push(paid.status);
        if (paid.status === 429) {
          expect(paid.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
          expect(Number(paid.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
    }
    expect(answers).toEqual([402, 402, 402, 402, 429, 429]);
    expect(await sandboxCharges(t)).toHaveLength(LIMIT);

    // The window passes: the order's owner may pay (with a card that works).
    await t.clock.advance(61_000);
    const { payToken } = (await t.rest('POST', '/api/orders', VALID_ORDER)).body as { payToken: string };
    const token = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.ok), cvc: '123' });
    const paid = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: token.body.token });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });

  it('are counted alike when GraphQL payOrder charges them: RATE_LIMITED, retryable, past the limit', async () => {
    const t = await paymentsGateway({ env: { RATE_LIMIT_SUBJECT_WRITE: String(LIMIT) } });
    const { orderNumber, payToken: first } = await t.createOrder();
    const pay = 'mutation ($n: ID!, $i: PayInput!) { payOrder(orderNumber: $n, input: $i) { __typename ... on ApiError { code retryable } } }';
    const answers: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      const payToken = round === 0 ? first : ((await t.rest('POST', '/api/orders', VALID_ORDER)).body.payToken as string);
      for (let attempt = 0; attempt < 2; attempt++) {
        const token = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.declined), cvc: '123' });
        const paid = await t.gql(pay, { n: String(orderNumber), i: { t: payToken, method: 'CARD', token: token.body.token } });
        answers.push(paid.data?.payOrder ?? paid.errors?.[0]?.extensions);
      }
    }
    const declined = { __typename: 'ApiError', code: 'DECLINED', retryable: false };
    expect(answers.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(declined));
    expect(answers.slice(LIMIT)).toEqual(Array(2).fill(expect.objectContaining({ code: 'RATE_LIMITED', retryable: true })));
    expect(await sandboxCharges(t)).toHaveLength(LIMIT);
  });

  it('are not counted with RATE_LIMITS=off, as no other limit is', async () => {
    const t = await paymentsGateway({ env: { RATE_LIMIT_SUBJECT_WRITE: '1', RATE_LIMITS: 'off' } });
    const { orderNumber, payToken } = await t.createOrder();
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.declined), cvc: '123' });
      const paid = await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: token.body.token });
      expect(paid.status).toBe(402);
    }
  });
});
