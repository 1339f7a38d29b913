/**
 * POST /api/orders on the REST door (document 1 §2-§4, docs/ordering.md): every OrderInput rule at its boundary,
 * the 400/422 split, and creation. Duplicates and the rate limit are duplicate-orders.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestGateway, testGateway } from '../support/gateway.ts';
import { orderRequests, PAY_LABEL } from './order-requests.ts';

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

const { options, orderInput, create, expect422, expect201 } = orderRequests(() => t);

describe('creating an order', () => {
  it('answers 201 with the Order, its hold fields and texts, as application/json', async () => {
    const input = await orderInput();
    const res = await t.rest('POST', '/api/orders', input);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    const body = res.body;
    expect(body.ok).toBe(true);
    expect(body.duplicate).toBe(false);
    expect(body.orderNumber).toBe('1001');
    expect(body.status).toBe('awaiting payment');
    expect(body.holdUntil).toBe(new Date(t.clock.now() + 300_000).toISOString());
    expect(body.holdUntil).toBe('2026-11-22T15:05:00.000Z');
    expect(body.secondsLeft).toBe(300);
    expect(body.holdUntilText).toBe('10:05 AM ET');
    expect(body.payUrl).toContain('/pay/1001');
    expect(body.payUrl.startsWith('http://sleeve.test/')).toBe(true);
    expect(typeof body.payToken).toBe('string');
    expect(body.payToken.length).toBeGreaterThanOrEqual(22); // ≥128 bits of base64url
    expect(body.payLabel).toBe(PAY_LABEL);
    expect(typeof body.payButtonLabel).toBe('string');
    expect(body.payButtonLabel.length).toBeGreaterThan(0);
    expect(body.reason).toBeUndefined();
    expect(body.order).toEqual({
      size: input.size,
      font: input.font,
      thread: input.thread,
      stitchText: input.stitchText,
      status: 'awaiting payment',
    });
    expect(body.message.trim().length).toBeGreaterThan(0);
    expect(body.nextAction.trim().length).toBeGreaterThan(0);
    expect(body.message).toContain('10:05 AM ET');
  });

  it('numbers orders 1001, then 1002', async () => {
    expect((await create()).body.orderNumber).toBe('1001');
    expect((await create({ email: 'bob@example.com' })).body.orderNumber).toBe('1002');
  });

  it('gives every order its own payToken', async () => {
    const a = await create();
    const b = await create({ email: 'bob@example.com' });
    expect(a.body.payToken).not.toBe(b.body.payToken);
  });

  it('ignores unknown extra fields', async () => {
    const res = await t.rest('POST', '/api/orders', { ...(await orderInput()), coupon: 'FREE', status: 'received' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('awaiting payment');
  });
});

describe('name rules on the REST door', () => {
  it('accepts a name of 40 characters and refuses 41 with field name', async () => {
    const forty = 'Alexandria ' + 'B'.repeat(29);
    expect(forty).toHaveLength(40);
    await expect422({ name: forty + 'b' }, 'name');
    await expect201({ name: forty });
  });

  it('accepts 5 words and refuses 6 with field name', async () => {
    await expect422({ name: 'Ann Bea Cal Dee Eve Fay' }, 'name');
    await expect201({ name: 'Ann Bea Cal Dee Eve' });
  });

  it.each(['José Núñez', "Zoë O'Brien-Smith", 'Nguyễn Văn An'])('accepts the Unicode name %s', async (name) => {
    await expect201({ name });
  });

  it.each(['Ada https://lovelace.example', 'Ada http://x', 'Ada www.lovelace', 'Ada lovelace.com', 'Ada Lovelace.org'])(
    'refuses the name %j because it carries a link or web address',
    async (name) => {
      await expect422({ name }, 'name');
    },
  );

  it.each(['Ada', 'Ada Lovelace2', 'Ada_Lovelace Byron', 'Ada 🧵 Lovelace'])('refuses the name %j', async (name) => {
    await expect422({ name }, 'name');
  });
});

describe('email rules on the REST door', () => {
  it('accepts an email of 254 characters and refuses 255 with field email', async () => {
    const max = 'a'.repeat(254 - '@example.com'.length) + '@example.com';
    expect(max).toHaveLength(254);
    await expect422({ email: 'a' + max }, 'email');
    await expect201({ email: max });
  });

  it.each([
    'ada lovelace@example.com',
    '"ada"@example.com',
    "ada'l@example.com",
    'ada@example.com,bob@example.com',
    'Ada <ada@example.com>',
    'ada@[127.0.0.1]',
    'ada(x)@example.com',
    'ada@example',
    'not-an-email',
  ])('refuses the email %j with field email', async (email) => {
    await expect422({ email }, 'email');
  });
});

describe('size, font and thread on the REST door', () => {
  it.each(['size', 'font', 'thread'])('refuses a %s that is not offered with 422 and the field', async (field) => {
    await expect422({ [field]: 'Plaid' }, field);
  });

  it('follows the options offered now when staff change them', async () => {
    const before = await options();
    await t.gateway.services.options.update({
      sizes: [{ value: '17-inch' }],
      fonts: before.fonts.map((value) => ({ value })),
      threads: before.threads.map((value) => ({ value })),
      charLimit: 5,
    });
    const after = await options();
    expect(after.sizes).toEqual(['17-inch']);
    expect(after.charLimit).toBe(5);
    await expect422({ size: before.sizes[0] }, 'size');
    await expect422({ size: '17-inch', stitchText: 'A'.repeat(after.charLimit + 1) }, 'stitchText');
    await expect201({ size: '17-inch', stitchText: 'A'.repeat(after.charLimit) });
  });
});

describe('stitchText rules on the REST door', () => {
  it('accepts stitchText of exactly charLimit characters and refuses charLimit + 1', async () => {
    const { charLimit } = await options();
    expect(Number.isInteger(charLimit)).toBe(true);
    await expect422({ stitchText: 'A'.repeat(charLimit + 1) }, 'stitchText');
    const res = await expect201({ stitchText: 'A'.repeat(charLimit) });
    expect(res.body.order.stitchText).toBe('A'.repeat(charLimit));
  });

  it('accepts letters, digits, spaces, ".", "-" and "&" after a letter or digit', async () => {
    const res = await expect201({ stitchText: 'Ab9 .-&' });
    expect(res.body.order.stitchText).toBe('Ab9 .-&');
  });

  it('accepts a stitchText starting with a digit', async () => {
    await expect201({ stitchText: '1815 Ada' });
  });

  it.each([
    ['!', 'Hi!'],
    ['_', 'A_B'],
    ["'", "Ada's"],
    ['an emoji', 'Ada 🧵'],
    ['an accented letter', 'José'],
    ['a leading space', ' Ada'],
    ['a leading "."', '.Ada'],
    ['a leading "-"', '-Ada'],
    ['a leading "&"', '&Co'],
    ['an empty string', ''],
  ])('refuses stitchText with %s', async (_what, stitchText) => {
    await expect422({ stitchText }, 'stitchText');
  });
});

describe('400 bad_request versus 422 validation_failed (docs/ordering.md#400-or-422)', () => {
  async function expect400(body: unknown, field: string | undefined) {
    const res = await t.rest('POST', '/api/orders', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ ok: false, code: 'bad_request', retryable: false });
    expect(res.body.field).toBe(field);
    expect(res.body.error.length).toBeGreaterThan(0);
  }

  it('answers 400 to a body that is not JSON', async () => {
    await expect400('{"email": "ada@example.com",', undefined);
  });

  it('answers 400 to an empty body', async () => {
    await expect400('', undefined);
  });

  it('answers 400 to a JSON array', async () => {
    await expect400([await orderInput()], undefined);
  });

  it('answers 400 to JSON null and to a JSON string', async () => {
    await expect400('null', undefined);
    await expect400('"ada@example.com"', undefined);
  });

  it.each(['email', 'name', 'size', 'font', 'thread', 'stitchText'])('answers 400 with field %s when it is missing', async (field) => {
    const { [field]: _gone, ...rest } = await orderInput();
    await expect400(rest, field);
  });

  it('answers 400 with field name when name is a number', async () => {
    await expect400(await orderInput({ name: 42 }), 'name');
  });

  it('answers 400 with field stitchText when it is an array', async () => {
    await expect400(await orderInput({ stitchText: ['A'] }), 'stitchText');
  });

  it('answers 422, not 400, when every field is present and typed but breaks a rule', async () => {
    await expect422({ email: 'nope' }, 'email');
  });

  it('names the first failing field when several rules break', async () => {
    await expect422({ email: 'nope', name: 'X', stitchText: '!' }, 'email');
    await expect422({ name: 'X', stitchText: '!' }, 'name');
  });

  it('stores nothing after a 400 or 422: the next valid order is number 1001', async () => {
    await expect400('not json', undefined);
    await expect400({ name: 1 }, 'email');
    await expect422({ name: 'Ada' }, 'name');
    await expect422({ stitchText: '!' }, 'stitchText');
    await expect422({ size: 'Plaid' }, 'size');
    const res = await expect201({});
    expect(res.body.orderNumber).toBe('1001');
  });

  it('does not let a refused order hold the email', async () => {
    await expect422({ stitchText: '!' }, 'stitchText');
    const res = await expect201({});
    expect(res.body.orderNumber).toBe('1001');
  });
});
