/**
 * SQLite on a full disk (an outside disaster-recovery review filled the disk under load): every write answered 500
 * `internal`, which a client following docs/ordering.md#retryable-codes takes for a fault of ours, and logged its
 * stack, thousands of lines a second onto the same full disk. SQLITE_FULL and SQLITE_IOERR are now an outage:
 * 503 `unavailable` with Retry-After, as a held lock is, nothing stored, and writes go through again once space
 * returns, with no restart. The full disk is SQLite's own limit on the file's pages (`max_page_count`).
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('SQLite on a full disk', () => {
  it('answers a write 503 unavailable with Retry-After, stores nothing of it, and writes again once there is space', async () => {
    const path = join(tempDir(), 'event.db');
    const t = await testGateway({ env: { DATABASE_URL: `file:${path}`, RATE_LIMIT_WRITE: '100000', RATE_LIMIT_SUBJECT_WRITE: '100000' } });
    const { db } = t.gateway.database;
    const pages = Number((await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count);
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db);

    let full: Awaited<ReturnType<typeof t.rest>> | undefined;
    const stored: string[] = [];
    for (let i = 0; i < 500 && !full; i++) {
      const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: `full${i}@example.com` });
      if (created.status === 201) stored.push(created.body.orderNumber);
      else full = created;
    }
    expect(full?.status).toBe(503);
    expect(full!.headers.get('retry-after')).toBe('1');
    expect(full!.body).toMatchObject({ ok: false, code: 'unavailable', retryable: true });
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
    expect(await count()).toBe(stored.length);

    await sql.raw(`pragma max_page_count = ${pages * 100}`).execute(db);
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'space@example.com' })).status).toBe(201);
    expect(await count()).toBe(stored.length + 1);
  });
});
