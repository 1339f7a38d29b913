/**
 * The pure rules of document 1 §2 (OrderInput, PayInput) and docs/ordering.md (names, emails, the 400/422 split,
 * texts per status, holdUntilText), tested without any door.
 */
import { describe, expect, it } from 'vitest';
import { emailKey, emailProblem, EMAIL_MAX_LENGTH } from '../../src/kernel/email.ts';
import { DomainError, ERROR_REGISTRY } from '../../src/kernel/errors.ts';
import {
  checkOrderInput,
  parseOrderInput,
  parsePayInput,
  STITCH_TEXT_PATTERN,
  type OrderInput,
} from '../../src/orders/order-input.ts';
import { holdUntilText, orderTexts } from '../../src/orders/order-texts.ts';
import {
  canAdvance,
  canCancel,
  HOLD_EXPIRED_REASON,
  ORDER_STATUSES,
  PAY_LABEL,
  secondsLeft,
  type Order,
  type OrderStatus,
} from '../../src/orders/order.ts';
import { collectorMatches, comparableName, displayName, nameProblem, NAME_MAX_LENGTH } from '../../src/orders/person-name.ts';
import { DEFAULT_OPTIONS, type SleeveOptionSet } from '../../src/orders/sleeve-options.ts';

const OPTIONS: SleeveOptionSet = { version: 1, ...DEFAULT_OPTIONS };

const VALID: OrderInput = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  size: OPTIONS.sizes[0]!.value,
  font: OPTIONS.fonts[0]!.value,
  thread: OPTIONS.threads[0]!.value,
  stitchText: 'ADA 1815',
};

/** Runs `fn` and returns the DomainError it threw (fails the test when it throws nothing or something else). */
function domainErrorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, but nothing was thrown');
}

function check(change: Partial<OrderInput>, options: SleeveOptionSet = OPTIONS): void {
  checkOrderInput({ ...VALID, ...change }, options);
}

function expectInvalid(change: Partial<OrderInput>, field: keyof OrderInput, options: SleeveOptionSet = OPTIONS): DomainError {
  const error = domainErrorOf(() => check(change, options));
  expect(error.code).toBe('validation_failed');
  expect(error.status).toBe(422);
  expect(error.retryable).toBe(false);
  expect(error.details.field).toBe(field);
  return error;
}

describe('name rules (document 1 §2, docs/ordering.md#names)', () => {
  it('accepts a name of exactly 40 characters and refuses one of 41', () => {
    const forty = 'Alexandria ' + 'B'.repeat(NAME_MAX_LENGTH - 'Alexandria '.length);
    expect(forty).toHaveLength(40);
    expect(nameProblem(forty)).toBeNull();
    expect(() => check({ name: forty })).not.toThrow();

    const fortyOne = forty + 'b';
    expect(fortyOne).toHaveLength(41);
    expect(nameProblem(fortyOne)).toMatch(/40/u);
    expectInvalid({ name: fortyOne }, 'name');
  });

  it('counts the 40 characters on the name as stored: trimmed, one space between words, a letter as one', () => {
    const forty = 'Alexandria ' + 'B'.repeat(NAME_MAX_LENGTH - 'Alexandria '.length);
    expect(nameProblem(`  ${forty.replace(' ', '   ')}  `)).toBeNull(); // stored as the 40 characters of forty
    const astral = '𝒜da ' + 'L'.repeat(NAME_MAX_LENGTH - 4); // 𝒜 is one letter, two UTF-16 units
    expect([...astral]).toHaveLength(40);
    expect(nameProblem(astral)).toBeNull();
    expect(nameProblem(astral + 'x')).toMatch(/40/u);
  });

  it('accepts five words and refuses six', () => {
    expect(nameProblem('Ann Bea Cal Dee Eve')).toBeNull();
    expect(nameProblem('Ann Bea Cal Dee Eve Fay')).not.toBeNull();
    expectInvalid({ name: 'Ann Bea Cal Dee Eve Fay' }, 'name');
  });

  it('counts words separated by several spaces once each', () => {
    expect(nameProblem('Ann   Bea  Cal Dee    Eve')).toBeNull();
    expect(nameProblem('Ann  Bea  Cal  Dee  Eve  Fay')).not.toBeNull();
  });

  it('refuses a single word, because first and last name are checked at pickup', () => {
    expectInvalid({ name: 'Ada' }, 'name');
  });

  it('refuses an empty or blank name', () => {
    expectInvalid({ name: '' }, 'name');
    expectInvalid({ name: '    ' }, 'name');
  });

  it.each(['José Núñez', "Zoë O'Brien-Smith", 'Nguyễn Văn An', 'Nguyễn Văn An'.normalize('NFD'), 'J. R. Tolkien', 'Ada O’Neil', 'Łukasz Żółć', 'Олена Петренко'])(
    'accepts the Unicode name %s',
    (name) => {
      expect(nameProblem(name)).toBeNull();
      expect(() => check({ name })).not.toThrow();
    },
  );

  it.each([
    ['a URL with ://', 'Ada https://evil.example'],
    ['a scheme without www', 'Ada ftp://files'],
    ['a www. address', 'Ada www.lovelace'],
    ['a www. address in capitals', 'Ada WWW.Lovelace'],
    ['a domain-like word.tld at the end', 'Ada lovelace.com'],
    ['a domain-like word.tld in the middle', 'Ada lovelace.io Byron'],
    ['a domain-like word.tld in capitals', 'Ada Lovelace.COM'],
  ])('refuses a name with %s as a link', (_what, name) => {
    expect(nameProblem(name)).toBe('Name may not contain a link or web address.');
    expectInvalid({ name }, 'name');
  });

  it.each([
    ['a digit', 'Ada Lovelace2'],
    ['an @', 'Ada @Lovelace'],
    ['an underscore', 'Ada_Lovelace Byron'],
    ['a comma', 'Lovelace, Ada'],
    ['an emoji', 'Ada Lovelace 🧵'],
    ['a slash', 'Ada Love/lace'],
  ])('refuses a name containing %s', (_what, name) => {
    expect(nameProblem(name)).not.toBeNull();
    expectInvalid({ name }, 'name');
  });

  it('refuses a name made only of punctuation', () => {
    expect(nameProblem("-- '.")).not.toBeNull();
  });

  it('compares names for pickup ignoring case, accents and extra spaces', () => {
    expect(comparableName('  José   NÚÑEZ ')).toBe('jose nunez');
    expect(comparableName("J. R. O'Brien-Smith")).toBe('j r obriensmith');
    expect(collectorMatches('José Núñez', 'jose  nunez')).toBe(true);
    expect(collectorMatches("Zoë O'Brien-Smith", "ZOE o'brien-smith")).toBe(true);
    expect(collectorMatches('Nguyễn Văn An', 'Nguyen An')).toBe(true);
    expect(collectorMatches('Ada Lovelace', 'Ada Byron')).toBe(false);
    expect(collectorMatches('Ada Lovelace', 'Ada')).toBe(false);
  });

  // Staff type what they hear: no punctuation, and a name's pieces as one word or two (an attendee review at /staff).
  it.each([
    ['Anna-Lena Müller', 'Anna Lena Muller', true],
    ['Anna-Lena Müller', 'Annalena Muller', true],
    ["Seán O'Connor", 'Sean OConnor', true],
    ["Seán O'Connor", 'Sean O Connor', true],
    ['Sean O Connor', "Sean O'Connor", true],
    ['Jean-Luc Picard', 'Jean Luc Picard', true],
    ['Mary-Jane Watson-Parker', 'Mary Jane Watson Parker', true],
    ['J. R. Tolkien', 'J R Tolkien', true],
    ['J. R. Tolkien', 'JR Tolkien', true],
    ['Mary Jane Watson', 'Mary Watson', true],
    ['Anna-Lena Müller', 'Anna Muller', false],
    ['Anna-Lena Müller', 'Lena Muller', false],
    ["Seán O'Connor", 'Sean Connor', false],
    ['Ada Lovelace', 'AdaLovelace', false],
    ['Ada Lovelace', 'Ada Lovelace Byron', false],
    ['Li Wei', 'Wei Li', false],
  ])('matches %j collected by %j: %s', (order, collector, matches) => {
    expect(collectorMatches(order, collector)).toBe(matches);
  });

  it('shows only the first name and last initial on the pickup board', () => {
    expect(displayName('Ada King Lovelace')).toBe('Ada L.');
    expect(displayName('Zoë émile')).toBe('Zoë É.');
  });
});

describe('email rules (document 1 §2)', () => {
  it(`accepts an email of exactly ${EMAIL_MAX_LENGTH} characters and refuses one of 255`, () => {
    const domain = '@example.com';
    const max = 'a'.repeat(EMAIL_MAX_LENGTH - domain.length) + domain;
    expect(max).toHaveLength(254);
    expect(emailProblem(max)).toBeNull();
    expect(() => check({ email: max })).not.toThrow();

    const over = 'a' + max;
    expect(over).toHaveLength(255);
    expect(emailProblem(over)).not.toBeNull();
    expectInvalid({ email: over }, 'email');
  });

  it.each([
    ['a space', 'ada lovelace@example.com'],
    ['a tab', 'ada\t@example.com'],
    ['a double quote', '"ada"@example.com'],
    ['a single quote', "ada'l@example.com"],
    ['a comma', 'ada@example.com,bob@example.com'],
    ['angle brackets', 'Ada <ada@example.com>'],
    ['square brackets', 'ada@[127.0.0.1]'],
    ['round brackets', 'ada(comment)@example.com'],
  ])('refuses an email containing %s', (_what, email) => {
    expect(emailProblem(email)).not.toBeNull();
    expectInvalid({ email }, 'email');
  });

  it.each([
    ['no @', 'ada.example.com'],
    ['two @', 'ada@lovelace@example.com'],
    ['no dot in the domain', 'ada@localhost'],
    ['an empty local part', '@example.com'],
    ['a leading dot in the local part', '.ada@example.com'],
    ['two dots in the local part', 'ada..l@example.com'],
    ['a domain label starting with a hyphen', 'ada@-example.com'],
    ['only spaces', '   '],
  ])('refuses an email with %s', (_what, email) => {
    expect(emailProblem(email)).not.toBeNull();
    expectInvalid({ email }, 'email');
  });

  it.each(['ada@example.com', 'ada.lovelace+sleeve@mail.example.co.uk', 'A_D-A@Example.COM', '  ada@example.com  '])(
    'accepts the ordinary address %j',
    (email) => {
      expect(emailProblem(email)).toBeNull();
    },
  );

  it('keys an email case-insensitively after trimming (one order per email)', () => {
    expect(emailKey(' ADA@Example.com ')).toBe('ada@example.com');
    expect(emailKey('ada@example.com')).toBe(emailKey('Ada@EXAMPLE.com'));
  });
});

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

// 2026-11-22 15:00 UTC is 10:00 AM in New York (EST, UTC-5).
const NOW = Date.UTC(2026, 10, 22, 15, 0, 0);

function order(status: OrderStatus, extra: Partial<Order> = {}): Order {
  return {
    orderNumber: '1001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    choice: { size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' },
    status,
    createdAt: NOW,
    holdUntil: NOW + 300_000,
    paidAt: null,
    paymentMethod: null,
    cancelledAt: null,
    cancelReason: null,
    readyAt: null,
    collectedAt: null,
    collectedBy: null,
    version: 1,
    updatedAt: NOW,
    ...extra,
  };
}

describe('holdUntilText (docs/ordering.md#hold-deadline-text)', () => {
  it('shows the deadline in New York time like "10:05 AM ET" when it is today there', () => {
    expect(holdUntilText(NOW + 300_000, NOW)).toBe('10:05 AM ET');
  });

  it('shows PM times', () => {
    expect(holdUntilText(Date.UTC(2026, 10, 22, 20, 5), Date.UTC(2026, 10, 22, 20, 0))).toBe('3:05 PM ET');
  });

  it('uses New York daylight time in summer', () => {
    // 2026-07-01 14:05 UTC is 10:05 AM EDT (UTC-4).
    expect(holdUntilText(Date.UTC(2026, 6, 1, 14, 5), Date.UTC(2026, 6, 1, 14, 0))).toBe('10:05 AM ET');
  });

  it('adds the date when the deadline is not today in New York', () => {
    // 11:58 PM on Sunday 22 Nov in New York; the deadline is 12:03 AM on Monday 23 Nov.
    const now = Date.UTC(2026, 10, 23, 4, 58);
    expect(holdUntilText(now + 300_000, now)).toBe('Mon, Nov 23, 12:03 AM ET');
  });

  it('compares days in New York, not in UTC', () => {
    // The UTC date changes (23:58 → 00:03) but in New York it is 6:58 PM → 7:03 PM on the same day.
    const now = Date.UTC(2026, 10, 22, 23, 58);
    expect(holdUntilText(now + 300_000, now)).toBe('7:03 PM ET');
  });

  it('gives each minute its own text when asked again and again, one minute after another and back', () => {
    // The texts are remembered per minute (order-texts.ts): a remembered one must never answer for another minute.
    const base = Date.UTC(2026, 10, 22, 15, 4, 59, 999); // 10:04:59.999 AM in New York
    const asked = [base, base + 1, base + 59_999, base + 60_001, base, base + 86_400_000];
    expect(asked.map((deadline) => holdUntilText(deadline, base))).toEqual([
      '10:04 AM ET',
      '10:05 AM ET',
      '10:05 AM ET',
      '10:06 AM ET',
      '10:04 AM ET',
      'Mon, Nov 23, 10:04 AM ET',
    ]);
  });
});

describe('secondsLeft (docs/ordering.md#seconds-left)', () => {
  it('counts whole seconds, rounded down', () => {
    expect(secondsLeft(NOW + 300_000, NOW)).toBe(300);
    expect(secondsLeft(NOW + 300_000, NOW + 1)).toBe(299);
    expect(secondsLeft(NOW + 300_000, NOW + 299_001)).toBe(0);
    expect(secondsLeft(NOW + 300_000, NOW + 299_000)).toBe(1);
  });

  it('is never negative', () => {
    expect(secondsLeft(NOW, NOW + 5_000)).toBe(0);
  });
});

describe('message and nextAction for every status (document 1 §1 rule 3)', () => {
  it('has a status list of exactly the six documented statuses', () => {
    expect([...ORDER_STATUSES]).toEqual(['awaiting payment', 'received', 'in progress', 'ready', 'collected', 'cancelled']);
  });

  it('gives each status its own non-empty message and nextAction naming the order', () => {
    const seen = new Set<string>();
    for (const status of ORDER_STATUSES) {
      const texts = orderTexts(order(status), NOW);
      expect(texts.message.trim().length, status).toBeGreaterThan(0);
      expect(texts.nextAction.trim().length, status).toBeGreaterThan(0);
      expect(texts.message, status).toContain('1001');
      seen.add(texts.message);
      seen.add(texts.nextAction);
    }
    expect(seen.size).toBe(ORDER_STATUSES.length * 2);
  });

  it('awaiting payment: tells the deadline, offers both ways to pay and does not choose', () => {
    const { message, nextAction } = orderTexts(order('awaiting payment'), NOW);
    expect(message).toContain('10:05 AM ET');
    expect(message).toContain('$1.00');
    expect(message).toMatch(/refunded/u);
    expect(nextAction).toContain('10:05 AM ET');
    expect(nextAction).toContain('payUrl');
    expect(nextAction).toContain('vendor_card');
    expect(nextAction).toMatch(/Do not choose for them/u);
  });

  it('awaiting payment: puts the date in the texts when the deadline is tomorrow in New York', () => {
    const now = Date.UTC(2026, 10, 23, 4, 58);
    const { message } = orderTexts(order('awaiting payment', { holdUntil: now + 300_000 }), now);
    expect(message).toContain('Mon, Nov 23, 12:03 AM ET');
  });

  it('received: says it is paid and not to pay again', () => {
    const { message, nextAction } = orderTexts(order('received'), NOW);
    expect(message).toMatch(/paid/u);
    expect(nextAction).toMatch(/do not pay again/iu);
  });

  it('in progress: says it is being embroidered', () => {
    expect(orderTexts(order('in progress'), NOW).message).toMatch(/embroidered now/u);
  });

  it('ready: sends the user to the pickup station with first and last name', () => {
    const { message, nextAction } = orderTexts(order('ready'), NOW);
    expect(message).toMatch(/pickup station/u);
    expect(nextAction).toMatch(/first and last name/u);
  });

  it('collected: says nothing more is to be done', () => {
    const { message, nextAction } = orderTexts(order('collected'), NOW);
    expect(message).toMatch(/collected/u);
    expect(nextAction).toBe('Nothing more to do for this order.');
  });

  it("awaiting payment: tells every door how to pass the payToken, by the names the doors really take", () => {
    const { nextAction } = orderTexts(order('awaiting payment'), NOW);
    expect(nextAction).toMatch(/payToken \(the field t of the REST pay body and of GraphQL payOrder's input; the argument payToken of MCP pay_order\)\.$/u);
  });

  it('cancelled for non-payment: gives the 5-minute reason and says the email may order again', () => {
    const { message, nextAction } = orderTexts(order('cancelled', { cancelReason: HOLD_EXPIRED_REASON }), NOW);
    expect(message).toBe('Order 1001 was cancelled because it was not paid within 5 minutes.');
    expect(nextAction).toMatch(/new order with the same email/u);
  });

  it("cancelled by staff: never relays staff's reason (a staff-only field), and says when the payment is refunded", () => {
    const unpaid = orderTexts(order('cancelled', { cancelReason: 'stolen card', paidAt: null, paymentMethod: null }), NOW);
    expect(unpaid.message).toBe('Order 1001 was cancelled by the event staff.');
    expect(JSON.stringify(unpaid)).not.toMatch(/stolen/u);
    for (const paymentMethod of ['card', 'wallet'] as const) {
      const paid = orderTexts(order('cancelled', { cancelReason: 'stolen card', paidAt: NOW, paymentMethod }), NOW);
      expect(paid.message).toBe('Order 1001 was cancelled by the event staff. The $1.00 payment is refunded.');
    }
    const demo = orderTexts(order('cancelled', { cancelReason: 'thread ran out', paidAt: NOW, paymentMethod: 'vendor_card' }), NOW);
    expect(demo.message).toBe('Order 1001 was cancelled by the event staff.');
  });
});

describe('the order state machine (docs/ordering.md#moving-an-order-forward)', () => {
  it('moves forward through received → in progress → ready → collected, skipping allowed, never back', () => {
    expect(canAdvance('received', 'in progress')).toBe(true);
    expect(canAdvance('received', 'ready')).toBe(true);
    expect(canAdvance('in progress', 'collected')).toBe(true);
    expect(canAdvance('ready', 'in progress')).toBe(false);
    expect(canAdvance('received', 'received')).toBe(false);
    expect(canAdvance('awaiting payment', 'received')).toBe(false);
    expect(canAdvance('cancelled', 'received')).toBe(false);
  });

  it('lets staff cancel anything not collected or already cancelled', () => {
    expect(canCancel('awaiting payment')).toBe(true);
    expect(canCancel('ready')).toBe(true);
    expect(canCancel('collected')).toBe(false);
    expect(canCancel('cancelled')).toBe(false);
  });

  it('has the exact documented constants', () => {
    expect(HOLD_EXPIRED_REASON).toBe('not paid within 5 minutes');
    expect(PAY_LABEL).toBe('Pay $1.00 - all payments will be refunded');
  });
});
