/**
 * The pure rules of document 1 §2 for the options, stitchText, the 400/422 split of OrderInput, PayInput and the error
 * registry, tested without any door. Names and emails are person-rules.test.ts; the texts, order-texts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from '../../src/kernel/errors.ts';
import { parseOrderInput, parsePayInput, STITCH_TEXT_PATTERN } from '../../src/orders/order-input.ts';
import { type SleeveOptionSet } from '../../src/orders/sleeve-options.ts';
import { check, domainErrorOf, expectInvalid, OPTIONS, VALID } from './input-checks.ts';

describe('size, font and thread must be offered now', () => {
  it.each(['size', 'font', 'thread'] as const)('refuses a %s that is not offered, naming the field', (field) => {
    const error = expectInvalid({ [field]: 'Plaid' }, field);
    expect(error.message).toContain('Plaid');
  });

  it('is case-sensitive about option values', () => {
    expectInvalid({ size: VALID.size.toUpperCase() + 'X' }, 'size');
    expectInvalid({ font: VALID.font.toLowerCase() }, 'font');
  });

  it('follows the option set it is given, not the defaults', () => {
    const changed: SleeveOptionSet = { ...OPTIONS, version: 2, sizes: [{ value: '17-inch' }] };
    expectInvalid({}, 'size', changed);
    expect(() => check({ size: '17-inch' }, changed)).not.toThrow();
  });
});

describe('stitchText rules (document 1 §2)', () => {
  it('accepts stitchText of exactly charLimit characters and refuses charLimit + 1', () => {
    const limit = OPTIONS.charLimit;
    expect(() => check({ stitchText: 'A'.repeat(limit) })).not.toThrow();
    expectInvalid({ stitchText: 'A'.repeat(limit + 1) }, 'stitchText');
  });

  it('uses the charLimit of the option set it is given', () => {
    const small: SleeveOptionSet = { ...OPTIONS, charLimit: 3 };
    expect(() => check({ stitchText: 'ABC' }, small)).not.toThrow();
    expectInvalid({ stitchText: 'ABCD' }, 'stitchText', small);
  });

  it.each(['Ada', 'ADA', 'ada', '1815', '9 Lives', 'A.B.C', 'Jean-Luc', 'Bits & Bytes', 'A  B', 'A.', 'A-', 'A&'])(
    'accepts %j (letters, digits, spaces, ".", "-", "&", starting with a letter or digit)',
    (stitchText) => {
      expect(STITCH_TEXT_PATTERN.test(stitchText)).toBe(true);
      expect(() => check({ stitchText })).not.toThrow();
    },
  );

  it.each([
    ['an exclamation mark', 'Hi!'],
    ['an underscore', 'A_B'],
    ['an apostrophe', "Ada's"],
    ['an emoji', 'Ada 🧵'],
    ['an accented letter', 'José'],
    ['a comma', 'A,B'],
    ['a slash', 'A/B'],
    ['a hash', '#1'],
    ['a leading space', ' Ada'],
    ['a leading full stop', '.Ada'],
    ['a leading hyphen', '-Ada'],
    ['a leading ampersand', '&Co'],
    ['a newline', 'Ada\nByron'],
    ['a tab', 'Ada\tByron'],
    ['nothing at all', ''],
  ])('refuses stitchText with %s', (_what, stitchText) => {
    expect(STITCH_TEXT_PATTERN.test(stitchText)).toBe(false);
    expectInvalid({ stitchText }, 'stitchText');
  });

  it('reports the pattern before the length when both are broken', () => {
    const error = expectInvalid({ stitchText: '!'.repeat(OPTIONS.charLimit + 5) }, 'stitchText');
    expect(error.message).toMatch(/only the letters A to Z without accents, digits/u);
  });

  it('says which letters when an accented one is refused ("letters" alone read as "É is a letter" to users and agents)', () => {
    expect(expectInvalid({ stitchText: 'JOSÉ' }, 'stitchText').message).toContain('the letters A to Z without accents');
  });
});

describe('the 400 layer of OrderInput (docs/ordering.md#400-or-422)', () => {
  function expectBadRequest(body: unknown, field: string | undefined): void {
    const error = domainErrorOf(() => parseOrderInput(body));
    expect(error.code).toBe('bad_request');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.details.field).toBe(field);
  }

  it.each([
    ['an array', [VALID]],
    ['null', null],
    ['a string', 'hello'],
    ['a number', 42],
  ])('refuses a body that is %s, with no field', (_what, body) => {
    expectBadRequest(body, undefined);
  });

  it.each(['email', 'name', 'size', 'font', 'thread', 'stitchText'] as const)('refuses a body missing %s, naming it', (field) => {
    const { [field]: _omitted, ...rest } = VALID;
    expectBadRequest(rest, field);
    expectBadRequest({ ...VALID, [field]: null }, field);
  });

  it.each([
    ['name', 42],
    ['email', true],
    ['stitchText', ['A']],
    ['size', { value: '13-inch' }],
  ])('refuses %s of the wrong JSON type (%j) as 400, naming it', (field, value) => {
    expectBadRequest({ ...VALID, [field]: value }, field);
  });

  it('names the first failing field in document order', () => {
    expectBadRequest({ name: 1 }, 'email');
  });

  it('ignores unknown extra fields and returns only the six known ones', () => {
    const parsed = parseOrderInput({ ...VALID, coupon: 'FREE', admin: true });
    expect(parsed).toEqual(VALID);
  });

  it('leaves rule checks (an invalid email) to the 422 layer', () => {
    expect(() => parseOrderInput({ ...VALID, email: 'not an email' })).not.toThrow();
  });
});

describe('PayInput (document 1 §2, docs/ordering.md#paying)', () => {
  function expectPayBadRequest(body: unknown, field: string | undefined): void {
    const error = domainErrorOf(() => parsePayInput(body));
    expect(error.code).toBe('bad_request');
    expect(error.status).toBe(400);
    expect(error.details.field).toBe(field);
  }

  it('accepts vendor_card without a token', () => {
    expect(parsePayInput({ t: 'tok', method: 'vendor_card' })).toEqual({ t: 'tok', method: 'vendor_card' });
  });

  it('accepts card and wallet with a token', () => {
    expect(parsePayInput({ t: 'tok', method: 'card', token: 'tk_1' })).toEqual({ t: 'tok', method: 'card', token: 'tk_1' });
    expect(parsePayInput({ t: 'tok', method: 'wallet', token: 'tk_2' })).toEqual({ t: 'tok', method: 'wallet', token: 'tk_2' });
  });

  it('refuses vendor_card with a token, naming token', () => {
    expectPayBadRequest({ t: 'tok', method: 'vendor_card', token: 'tk_1' }, 'token');
    expectPayBadRequest({ t: 'tok', method: 'vendor_card', token: '' }, 'token');
  });

  it.each(['card', 'wallet'])('refuses %s without a token, naming token', (method) => {
    expectPayBadRequest({ t: 'tok', method }, 'token');
    expectPayBadRequest({ t: 'tok', method, token: '' }, 'token');
  });

  it('refuses an unknown method, including the undocumented forter_card, naming method', () => {
    expectPayBadRequest({ t: 'tok', method: 'bitcoin' }, 'method');
    expectPayBadRequest({ t: 'tok', method: 'forter_card' }, 'method');
    expectPayBadRequest({ t: 'tok', method: 'VENDOR_CARD' }, 'method');
    expectPayBadRequest({ t: 'tok', method: 3 }, 'method');
  });

  it('refuses a missing or non-string t, naming t', () => {
    expectPayBadRequest({ method: 'vendor_card' }, 't');
    expectPayBadRequest({ t: 5, method: 'vendor_card' }, 't');
  });

  it('refuses a missing method, naming method', () => {
    expectPayBadRequest({ t: 'tok' }, 'method');
  });

  it('refuses a token of the wrong JSON type, naming token', () => {
    expectPayBadRequest({ t: 'tok', method: 'card', token: 12 }, 'token');
  });

  it('refuses a body that is not an object', () => {
    expectPayBadRequest([], undefined);
    expectPayBadRequest('vendor_card', undefined);
  });

  it('ignores unknown extra fields', () => {
    expect(parsePayInput({ t: 'tok', method: 'vendor_card', amount: 0 })).toEqual({ t: 'tok', method: 'vendor_card' });
  });
});

describe('the error registry (document 1 §7, docs/ordering.md#retryable-codes)', () => {
  it('gives every code its documented status and retryable value', () => {
    expect(ERROR_REGISTRY).toEqual({
      bad_request: { status: 400, retryable: false },
      unauthorized: { status: 401, retryable: false },
      declined: { status: 402, retryable: false },
      not_found: { status: 404, retryable: false },
      duplicate: { status: 409, retryable: false },
      cancelled: { status: 409, retryable: false },
      validation_failed: { status: 422, retryable: false },
      rate_limited: { status: 429, retryable: true },
      internal: { status: 500, retryable: true },
      payment_unknown: { status: 502, retryable: true },
      payment_error: { status: 502, retryable: true },
      unavailable: { status: 503, retryable: true },
    });
  });
});
