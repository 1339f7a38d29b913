import { describe, expect, it } from 'vitest';
import { createLogger, scrub } from '../src/kernel/logger.ts';
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
