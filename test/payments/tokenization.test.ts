/**
 * The tokenization operations of document 3 (docs/platform.md#tokens): every bound at its edges, Luhn, basic auth, the
 * `{ message }` error body, detokenize by token and alias, tokens that say nothing of the number.
 */
import { describe, expect, it } from 'vitest';
import { card, CARDS, paymentsGateway, siteCalls } from './support.ts';

/** Luhn-valid numbers of a given length (the check digit computed). */
function luhnNumber(length: number): string {
  const body = '4'.padEnd(length - 1, '0').slice(0, length - 1).replace(/0$/u, '1');
  for (let d = 0; d <= 9; d++) {
    const candidate = body + d;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      let n = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
      sum += n;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}

describe('tokenize', () => {
  it('answers 200 { token, cardInfo } with the brand from the number, bin 6 to 8 and exactly four last digits', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const visa = await api.tokenize(card(CARDS.ok));
    expect(visa.status).toBe(200);
    expect(visa.body.cardInfo).toEqual({ bin: '42424242', lastFourDigits: '4242', cardBrand: 'VISA', expirationMonth: 12, expirationYear: 2030 });
    expect((await api.tokenize(card(CARDS.mastercard))).body.cardInfo.cardBrand).toBe('MASTERCARD');
    expect((await api.tokenize(card('378282246310005'))).body.cardInfo).toMatchObject({ cardBrand: 'AMEX', bin: '378282', lastFourDigits: '0005' });
  });

  it.each([
    ['card number of 10 digits', { cardNumber: luhnNumber(10) }, 200],
    ['card number of 19 digits', { cardNumber: luhnNumber(19) }, 200],
    ['card number of 9 digits', { cardNumber: luhnNumber(9) }, 400],
    ['card number of 20 digits', { cardNumber: luhnNumber(20) }, 400],
    ['month 1', { expirationMonth: 1 }, 200],
    ['month 12', { expirationMonth: 12 }, 200],
    ['month 0', { expirationMonth: 0 }, 400],
    ['month 13', { expirationMonth: 13 }, 400],
    ['year 2000', { expirationYear: 2000 }, 200],
    ['year 2125', { expirationYear: 2125 }, 200],
    ['year 1999', { expirationYear: 1999 }, 400],
    ['year 2126', { expirationYear: 2126 }, 400],
    ['month as a string', { expirationMonth: '12' }, 400],
    ['holder of 1 character', { cardHolderName: 'A' }, 200],
    ['holder of 100 characters', { cardHolderName: 'A'.repeat(100) }, 200],
    ['empty holder', { cardHolderName: '' }, 400],
    ['holder of 101 characters', { cardHolderName: 'A'.repeat(101) }, 400],
    // Characters, as JSON Schema's maxLength counts them: 100 outside the BMP are 200 UTF-16 units.
    ['holder of 100 characters outside the BMP', { cardHolderName: '𝐀'.repeat(100) }, 200],
    ['holder of 101 characters outside the BMP', { cardHolderName: '𝐀'.repeat(101) }, 400],
    ['a number that fails Luhn', { cardNumber: '4242424242424241' }, 400],
    ['a number with letters', { cardNumber: '42424242424242ab' }, 400],
    ['a cvc of 2 digits', { cvc: '12' }, 400],
    ['a cvc of 4 digits', { cvc: '1234' }, 200],
  ])('%s %o: %i', async (_name, change, status) => {
    const t = await paymentsGateway();
    const res = await siteCalls(t).tokenize(card(CARDS.ok, change));
    expect(res.status).toBe(status);
    if (status === 400) {
      // The tokenization error body is exactly { message } (document 3 §7), and never echoes the number.
      expect(Object.keys(res.body)).toEqual(['message']);
      expect(res.body.message).not.toMatch(/\d{9,}/u);
    }
  });

  it('says "required" only for an absent card field, and never repeats a card number sent as a number', async () => {
    const api = siteCalls(await paymentsGateway());
    const messageFor = async (change: Record<string, unknown>) => (await api.tokenize(card(CARDS.ok, change))).body.message as string;
    const asNumber = await messageFor({ cardNumber: Number(CARDS.ok) });
    expect(asNumber).toBe('cardNumber must be a string of digits; it was a number.');
    expect(asNumber).not.toMatch(/\d{6,}/u);
    expect(await messageFor({ cardNumber: undefined })).toBe('cardNumber is required: a string of digits.');
    expect(await messageFor({ expirationMonth: '12' })).toBe('expirationMonth must be a whole number from 1 to 12; it was a string.');
    expect(await messageFor({ cardHolderName: ['Ada'] })).toBe('cardHolderName must be a string; it was an array.');
  });

  it.each(['missing', 'wrong'])('answers 401 with %s credentials', async (which) => {
    const t = await paymentsGateway();
    const headers: Record<string, string> = which === 'wrong' ? { authorization: `Basic ${Buffer.from(`${t.siteId}:nope`).toString('base64')}` } : {};
    for (const path of ['/v1/tokenization/tokenize', '/v1/tokenization/detokenize', '/v1/tokenization/upgrade', '/v1/account-updater/card/update', '/api/payments']) {
      const res = await t.rest('POST', path, card(), headers);
      expect(res.status, path).toBe(401);
    }
  });

  it('makes random tokens: the same card twice gives two unrelated tokens, neither containing the number', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const a = await api.token(CARDS.ok);
    const b = await api.token(CARDS.ok);
    expect(a).not.toBe(b);
    for (const token of [a, b]) {
      expect(token).toMatch(/^tok_[A-Za-z0-9_-]{32}$/u);
      expect(token).not.toContain('4242');
    }
  });
});

describe('detokenize', () => {
  it('returns the full card data by token and by alias, with extra, aliases and customerId, never the CVC', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    const body = { ...card(CARDS.ok), cvc: '123', tokenAliases: { shopper: 's-1' }, extra: { note: 'vip' }, customerId: { id: 'c-9' } };
    const token = (await api.tokenize(body)).body.token;
    const expected = { cardNumber: CARDS.ok, expirationMonth: 12, expirationYear: 2030, cardHolderName: 'Ada Lovelace', extra: { note: 'vip' }, tokenAliases: { shopper: 's-1' }, customerId: { id: 'c-9' } };
    expect((await api.detokenize({ token })).body).toEqual(expected);
    expect((await api.detokenize({ tokenAlias: { key: 'shopper', value: 's-1' } })).body).toEqual(expected);
  });

  it('refuses an unknown token, a duplicate alias and another site’s token with 400 { message }', async () => {
    const t = await paymentsGateway();
    const api = siteCalls(t);
    await api.tokenize({ ...card(), tokenAliases: { shopper: 's-1' } });
    expect((await api.tokenize({ ...card(), tokenAliases: { shopper: 's-1' } })).status).toBe(400);
    const unknown = await api.detokenize({ token: 'tok_nothing' });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body)).toEqual(['message']);
    expect((await api.detokenize({})).status).toBe(400);

    // A merchant site created through the platform has its own vault scope.
    const merchant = await t.rest('POST', '/merchants', { defaultMerchantCategoryCode: '5411', merchantId: 'm-1', name: 'Shop' }, { ...api.auth, 'api-version': '10.3', 'x-vendor-siteid': t.siteId });
    expect(merchant.status, JSON.stringify(merchant.body)).toBe(200);
    const other = { authorization: `Basic ${Buffer.from(`${merchant.body.id}:${merchant.body.apiKey}`).toString('base64')}` };
    const token = await api.token();
    expect((await t.rest('POST', '/v1/tokenization/detokenize', { token }, other)).status).toBe(400);
  });
});
