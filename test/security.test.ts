import { describe, expect, it } from 'vitest';
import { scrub } from '../src/kernel/card-number.ts';
import { createLogger } from '../src/kernel/logger.ts';
import { freshRandomBytes, randomToken, timeOrderedId } from '../src/kernel/tokens.ts';
import { testGateway } from './support/gateway.ts';

describe('secrets at rest and in logs', () => {
  it('stores a payToken only as a hash: no table holds it in plain text', async () => {
    const t = await testGateway();
    const { payToken } = await t.createOrder();
    const db = t.gateway.database.db;
    const rows = [
      ...(await db.selectFrom('orders').selectAll().execute()),
      ...(await db.selectFrom('order_pay_tokens').selectAll().execute()),
    ];
    expect(rows.length).toBeGreaterThan(1);
    expect(JSON.stringify(rows)).not.toContain(payToken);
    // …and the token still works, so what is stored is its hash.
    expect((await t.rest('GET', `/api/orders/1001?t=${payToken}`)).status).toBe(200);
  });

  it('never writes a card number to a log line, but keeps timestamps and order numbers', () => {
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line));
    logger.info('payment', { detail: 'card 4242 4242 4242 4242 and 4000000000000002', at: 1763830000000, order: '1001' });
    expect(lines[0]).not.toContain('4242 4242 4242 4242');
    expect(lines[0]).not.toContain('4000000000000002');
    expect(lines[0]).toContain('1763830000000');
    expect(lines[0]).toContain('1001');
    expect(scrub('4242-4242-4242-4242')).toBe('[redacted-number]');
  });

  it('keeps ids whole: a UUID whose digit groups read as a Luhn-valid run is not a card number', () => {
    const id = 'pay_da124634-2366-4510-8416-9c57f0534c01'; // 2366-4510-8416 passes Luhn
    expect(scrub(`payment recorded ${id}`)).toBe(`payment recorded ${id}`);
    expect(scrub(`${id} card 4242 4242 4242 4242`)).toBe(`${id} card [redacted-number]`);
  });
});

describe('random bytes from the pool (src/kernel/tokens.ts)', () => {
  it('hands each byte out once, to one caller, across refills and beside time-ordered ids', () => {
    const first = freshRandomBytes(12);
    const kept = first.toString('hex');
    // Sizes that do not divide the pool's 4 KiB, with UUIDv7s taking their 16 bytes in between: many refills.
    const tokens = Array.from({ length: 3_000 }, (_, i) => (i % 3 === 0 ? timeOrderedId() : randomToken(i % 2 ? 32 : 18)));
    const ivs = Array.from({ length: 3_000 }, () => freshRandomBytes(12).toString('hex'));
    expect(new Set([...tokens, ...ivs]).size).toBe(6_000);
    // A byte handed out twice would start the next caller's bytes with the zero it left: about 12 of 3,000 by chance.
    expect(ivs.filter((iv) => iv.startsWith('00')).length).toBeLessThan(100);
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    // A caller's bytes are its own: later calls and refills leave them as they were.
    expect(first.toString('hex')).toBe(kept);
    expect(kept).not.toBe('0'.repeat(24));
    expect(freshRandomBytes(5_000)).toHaveLength(5_000);
  });
});
