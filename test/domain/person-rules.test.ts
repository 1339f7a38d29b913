/** Names and emails of document 1 §2 and docs/ordering.md#names, as pure rules without any door. */
import { describe, expect, it } from 'vitest';
import { emailKey, emailProblem, EMAIL_MAX_LENGTH } from '../../src/kernel/email.ts';
import { collectorMatches, comparableName, displayName, nameProblem, NAME_MAX_LENGTH } from '../../src/orders/person-name.ts';
import { check, expectInvalid } from './input-checks.ts';

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
