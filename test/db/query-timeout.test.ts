/**
 * A connection to PostgreSQL that goes silent while open (a blackhole: packets dropped, no reset, no close) is
 * neither refused nor ended, so nothing told pg about it: a query on it waited for the kernel's TCP retransmission
 * timeout, many minutes, and so did the request behind it, and the transaction it was in kept its locks on the
 * server, where the session waited for its next command for as long. `query_timeout` in DATABASE_URL bounds both
 * (docs/operations.md#when-postgresql-goes-away): a query unanswered that long closes its connection and is refused
 * 503 `unavailable`, and PostgreSQL ends a session left idle in its transaction that long, which frees its locks.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ConnectionLost } from '../../src/db/connection-loss.ts';
import type { AppDatabase } from '../../src/db/database.ts';
import { dropSchema, openPostgresWith, testDatabaseUrl } from '../support/databases.ts';
import { faultyLink } from '../support/faulty-link.ts';
import { afterThisTest } from '../support/gateway.ts';

const BASE = testDatabaseUrl();

/** `work`'s outcome, or a failure naming it once `ms` pass without one (the old code waited for minutes). */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(BASE)('a PostgreSQL connection that goes silent while open', () => {
  it('refuses the query 503 within query_timeout, drops the connection, and serves again once the link is back', async () => {
    const link = await faultyLink(BASE!);
    const database = await openPostgresWith(link.url, { query_timeout: '1' });
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);

    link.freeze();
    const refused = await within(15_000, 'a query on the frozen link', sql`select 1 as one`.execute(database.db).catch((error: unknown) => error));
    expect(refused).toBeInstanceOf(ConnectionLost);
    expect(refused).toMatchObject({ code: 'unavailable', driverCode: 'ETIMEDOUT', details: { retryAfter: 1 } });

    link.restore();
    expect((await within(15_000, 'a query after the link is back', sql<{ one: number }>`select 1 as one`.execute(database.db))).rows).toEqual([{ one: 1 }]);
  });

  it('does not leave the locks of its transaction held on the server: PostgreSQL ends the session after query_timeout', async () => {
    const schema = `silent_${randomBytes(5).toString('hex')}`;
    afterThisTest(() => dropSchema(BASE!, schema));
    const direct = await openPostgresWith(BASE!, { schema });
    await sql`create table counter (id int primary key, n int not null)`.execute(direct.db);
    await sql`insert into counter values (1, 0)`.execute(direct.db);
    const link = await faultyLink(BASE!);
    const silent = await openPostgresWith(link.url, { schema, query_timeout: '1' });

    const abandoned = silent.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 1 where id = 1`.execute(trx); // the row's lock, taken on the server
      link.freeze();
      await sql`select n from counter where id = 1`.execute(trx); // never reaches the server
    });
    expect(await within(15_000, 'the transaction on the frozen link', abandoned.catch((error: unknown) => error))).toBeInstanceOf(ConnectionLost);

    // The server never heard of the client's close: only its own timeout ends the session and frees the row.
    await within(15_000, 'an update of the row the silent transaction locked', sql`update counter set n = n + 10 where id = 1`.execute(direct.db));
    expect((await sql<{ n: number }>`select n from counter where id = 1`.execute(direct.db)).rows).toEqual([{ n: 10 }]);
  });

  it("sets the session's timeout to query_timeout, 10 s unless told, and none with query_timeout=0", async () => {
    const setting = async (database: AppDatabase) =>
      (await sql<{ setting: string }>`select current_setting('idle_in_transaction_session_timeout') as setting`.execute(database.db)).rows[0]!.setting;
    expect(await setting(await openPostgresWith(BASE!))).toBe('10s');
    expect(await setting(await openPostgresWith(BASE!, { query_timeout: '3' }))).toBe('3s');
    expect(await setting(await openPostgresWith(BASE!, { query_timeout: '0' }))).toBe('0');
  });

  it("leaves migrations unbounded: one that waits for another instance's migrations longer than query_timeout goes on after them", async () => {
    const schema = `migrating_${randomBytes(5).toString('hex')}`;
    afterThisTest(() => dropSchema(BASE!, schema));
    // The lock kysely's migrator takes on PostgreSQL (its adapter's advisory lock), held as another instance migrating.
    const other = new pg.Client({ connectionString: BASE });
    await other.connect();
    afterThisTest(() => other.end());
    await other.query('select pg_advisory_lock(3853314791062309107)');

    const database = await openPostgresWith(BASE!, { schema, query_timeout: '1' });
    let outcome: unknown;
    const migrating = database.migrate().then(
      () => (outcome = 'migrated'),
      (error: unknown) => (outcome = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // well past query_timeout
    // Still waiting for the lock (were it not kysely's lock any more, this test would show nothing).
    expect(outcome).toBeUndefined();
    await other.query('select pg_advisory_unlock(3853314791062309107)');
    // Before, the wait for the lock was refused as a lost connection after 1 s, and the instance could not start.
    expect(await within(15_000, 'the migrations', migrating)).toBe('migrated');
    await database.check();
  });
});
