/**
 * Upgrade to multi-use with network token provisioning (sync and async) and card update (docs/platform.md#upgrade-and-network-tokens): every token
 * of the card changes and one /token-updated row per token is queued, in document 2's shape.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_SCHEMAS } from '../../src/notifications/schemas.ts';
import { maskToken } from '../../src/notifications/sealed-body.ts';
import { NETWORK_TOKEN_DELAY_MS } from '../../src/payments/network-token-service.ts';
import { card, CARDS, outbox, paymentBody, paymentsGateway, siteCalls } from './support.ts';

const validTokenUpdated = new Ajv({ strict: false }).compile(NOTIFICATION_SCHEMAS['/token-updated']);

describe('upgrade', () => {
  it('makes a token multi-use: it pays more than once after upgrade, once before', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const token = await api.token();
    const withToken = paymentBody(CARDS.ok, { paymentMethod: { type: 'card', token } });
    expect((await api.pay(withToken)).status).toBe(201);
    const again = await api.pay(withToken);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ status: 'error', errors: [{ field: 'paymentMethod.token' }] });

    const fresh = await api.token();
    const up = await api.upgrade({ token: fresh });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ token: fresh, cardInfo: { bin: '42424242', lastFourDigits: '4242', cardBrand: 'VISA', expirationMonth: 12, expirationYear: 2030 } });
    const multi = paymentBody(CARDS.ok, { paymentMethod: { type: 'card', token: fresh } });
    for (let i = 0; i < 3; i++) expect((await api.pay(multi)).body.status).toBe('succeeded');
  });

  it('provisions a network token synchronously: created true, no notification', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const token = await api.token();
    const up = await api.upgrade({ token, networkToken: { provision: true, async: false } });
    expect(up.body.networkTokenStatus).toEqual({ created: true });
    const info = await t.gql('query($t: String!) { token(token: $t) { multiUse networkTokenStatus } }', { t: token }, { token: t.adminToken });
    expect(info.data.token).toEqual({ multiUse: true, networkTokenStatus: 'ACTIVE' });
    expect(await outbox(t)).toEqual([]);
  });

  it('provisions asynchronously by alias: created false, then one /token-updated when it is provisioned', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const token = await api.token(CARDS.ok, { tokenAliases: { shopper: 's-7' } });
    const up = await api.upgrade({ tokenAlias: { key: 'shopper', value: 's-7' }, networkToken: { provision: true, async: true } });
    expect(up.body).toMatchObject({ token, networkTokenStatus: { created: false } });
    expect(await outbox(t)).toEqual([]);

    await t.clock.advance(NETWORK_TOKEN_DELAY_MS);
    const rows = await outbox(t);
    expect(rows).toHaveLength(1);
    const { subject, body } = rows[0]!;
    expect(subject).toBe(maskToken(token)); // stored masked; the body is sealed and opened here (support.ts)
    expect(validTokenUpdated(body), JSON.stringify(validTokenUpdated.errors)).toBe(true);
    expect(body).toMatchObject({ token, source: 'NETWORK_TOKEN_PROVISIONING', card: { bin: '42424242', lastFourDigits: '4242', expiration: '1230' } });
    expect(body.updatedFields.networkTokenState).toBe('ACTIVE');
    expect(body.networkToken.paymentAccountReference).toBe(body.updatedFields.paymentAccountReference);
    expect(body.timestamp).toBe(String(t.clock.now()));
    // Provisioned once: more time sends nothing more.
    await t.clock.advance(60_000);
    expect(await outbox(t)).toHaveLength(1);
  });

  it('refuses a bad networkToken with 400 { message }', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const token = await api.token();
    const res = await api.upgrade({ token, networkToken: { async: true } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['message']);
  });
});

describe('card update', () => {
  it('changes every token of that card and queues one /token-updated per token with the new values', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const a = await api.token(CARDS.ok);
    const b = await api.token(CARDS.ok, { expirationYear: 2031 });
    const other = await api.token(CARDS.mastercard);

    const res = await api.updateCard(card(CARDS.ok, { expirationMonth: 3, expirationYear: 2031, cardHolderName: 'Ada King' }));
    expect(res.status).toBe(200);
    // Only detokenize returns the full number (docs/platform.md#card-data-at-rest): the echo is masked.
    expect(res.body).toEqual({ cardNumber: '42424242****4242', expirationMonth: 3, expirationYear: 2031, cardHolderName: 'Ada King' });

    const rows = await outbox(t);
    expect(rows.map((r) => r.subject).sort()).toEqual([a, b].map(maskToken).sort());
    const bySubject = Object.fromEntries(rows.map((r) => [r.body.token, r.body]));
    expect(bySubject[a]!.updatedFields).toEqual({ expirationMonth: '3', expirationYear: '2031' });
    expect(bySubject[b]!.updatedFields).toEqual({ expirationMonth: '3' });
    for (const body of Object.values(bySubject)) {
      expect(validTokenUpdated(body), JSON.stringify(validTokenUpdated.errors)).toBe(true);
      expect(body).toMatchObject({ source: 'ACCOUNT_UPDATER', card: { expiration: '0331', lastFourDigits: '4242' } });
    }
    for (const token of [a, b]) {
      expect((await api.detokenize({ token })).body).toMatchObject({ expirationMonth: 3, expirationYear: 2031, cardHolderName: 'Ada King' });
    }
    expect((await api.detokenize({ token: other })).body).toMatchObject({ expirationMonth: 12, expirationYear: 2030 });

    // The same data again changes nothing, so nothing more is sent.
    await api.updateCard(card(CARDS.ok, { expirationMonth: 3, expirationYear: 2031, cardHolderName: 'Ada King' }));
    expect(await outbox(t)).toHaveLength(2);
  });

  it('answers 400 for a card no token holds, and for a bound broken', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    expect((await api.updateCard(card(CARDS.ok))).status).toBe(400);
    await api.token(CARDS.ok);
    expect((await api.updateCard(card(CARDS.ok, { expirationMonth: 13 }))).status).toBe(400);
    expect((await api.updateCard(card(CARDS.ok, { cardHolderName: undefined }))).status).toBe(400);
  });
});
