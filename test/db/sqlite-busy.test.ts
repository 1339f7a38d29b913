/**
 * Another process holding SQLite's write lock past `busy_timeout` (5 s): an operator's `sqlite3` shell left inside
 * a transaction, a migration script, a second gateway pointed at the same file by mistake. The request that waited
 * is refused as an outage, 503 `unavailable` with Retry-After, in its path's shape, not 500: it did nothing wrong
 * and may try again (docs/running.md#when-the-file-is-locked). Nothing of it is stored.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

describe("SQLite's write lock held by another process", () => {
  it('refuses the write 503 unavailable once busy_timeout has passed, stores nothing, and serves again after', { timeout: 60_000 }, async () => {
    const file = join(tempDir(), 'busy.db');
    const server = await startProcess({ DATABASE_URL: `file:${file}` });
    const post = (email: string) =>
      fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...VALID_ORDER, email }) });
    const other = new SQLite(file);
    afterThisTest(async () => void other.close());

    // The first order of a fresh file stores the default options first; then an order as any other.
    for (const email of ['first@example.com', 'second@example.com']) {
      other.exec('begin immediate');
      const refused = await post(email);
      expect([email, refused.status, refused.headers.get('retry-after')]).toEqual([email, 503, '1']);
      expect(await refused.json()).toEqual({ ok: false, code: 'unavailable', error: expect.any(String), retryable: true });
      other.exec('rollback');
      // The same email is new: the refused order left nothing behind.
      expect((await post(email)).status).toBe(201);
    }
  });
});
