/**
 * Network tokens left in the clear (before migration 0011, or by an older instance during a rolling upgrade) sealed
 * by two real instances starting at once on one PostgreSQL schema (docs/platform.md#upgrade-and-network-tokens):
 * both sweep the same rows, batch after batch, each row is sealed by one of them (the two instances' counts add up to the rows, not
 * more), and every sealed value opens under VAULT_KEY to the token that was in the clear. Runs when
 * TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both); says so when skipped.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { createVaultCrypto } from '../../src/payments/vault-crypto.ts';
import { afterThisTest } from '../support/gateway.ts';
import { startInstances } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { legacyTokenRow } from '../payments/support.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
/** Enough that both instances' sweeps overlap (a second or more of sealing), whichever is ready first. */
const ROWS = 3_000;

/** What a process logged as sealed, in total. */
const sealedBy = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.includes('"sealed network tokens stored in the clear"'))
    .reduce((sum, line) => sum + (JSON.parse(line) as { count: number }).count, 0);

describe.skipIf(!DATABASE || !REDIS)(
  `network tokens in the clear, raced on two instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('are each sealed once by two instances starting together, and open to the tokens that were in the clear', { timeout: 90_000 }, async () => {
      const key = randomBytes(32);
      const { processes, env } = await startInstances('seal', { VAULT_KEY: key.toString('base64'), LOG_LEVEL: 'info' });
      for (const process of processes) {
        process.child.kill('SIGTERM');
        await process.exited;
      }
      const database = await createDatabase({ kind: 'postgres', url: env.DATABASE_URL! });
      afterThisTest(() => database.destroy());
      const crypto = createVaultCrypto(key);
      const now = Date.now();
      const clear = new Map<string, string>();
      const rows = Array.from({ length: ROWS }, (_, i) => {
        const networkToken = `ntk_${randomBytes(8).toString('hex')}`;
        clear.set(`legacy-${i}`, networkToken);
        return legacyTokenRow({ tokenHash: `legacy-${i}`, token: `tok_${i}`, networkToken, crypto, siteId: null, now });
      });
      for (let i = 0; i < ROWS; i += 500) await database.db.insertInto('vault_tokens').values(rows.slice(i, i + 500)).execute();

      const [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
      // Sealed in batches, the first at start and the rest right after, beside requests: a backlog holds up no start.
      const inTheClear = async () => Number((await database.db.selectFrom('vault_tokens').select((eb) => eb.fn.countAll().as('n')).where('network_token', 'is not', null).executeTakeFirstOrThrow()).n);
      await expect.poll(inTheClear, { timeout: 30_000, interval: 200 }).toBe(0);
      const stored = await database.db.selectFrom('vault_tokens').select(['token_hash', 'network_token', 'network_token_sealed']).where('token_hash', 'like', 'legacy-%').execute();
      expect(stored).toHaveLength(ROWS);
      for (const row of stored) {
        expect(row.network_token, row.token_hash).toBeNull();
        expect(crypto.open(row.network_token_sealed!), row.token_hash).toBe(clear.get(row.token_hash));
      }
      // Both sweep from the start; a row counted by both would make this more. Polled: a line may still be in a pipe.
      await expect.poll(() => sealedBy(a!.output()) + sealedBy(b!.output()), { timeout: 5_000 }).toBe(ROWS);
    });
  },
);
