/**
 * `connect_timeout` in DATABASE_URL (docs/operations.md#when-postgresql-goes-away, libpq's name, in seconds, default
 * 10) bounds the wait for a new PostgreSQL connection; `0` waits for ever, as it does in libpq. The bounded case is
 * also tested on real processes (test/scale/postgres-break.test.ts); this is the `0`, against a bounded database
 * opened on the same stalled link as its control: an address that takes connections and never answers.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ConnectionLost } from '../../src/db/connection-loss.ts';
import { openPostgresWith, testDatabaseUrl } from '../support/databases.ts';
import { faultyLink } from '../support/faulty-link.ts';

const BASE = testDatabaseUrl();

const open = (url: string, connectTimeout: string) => openPostgresWith(url, { connect_timeout: connectTimeout });

describe.runIf(BASE)('connect_timeout in DATABASE_URL', () => {
  it('refuses a query 503 once a new connection has waited connect_timeout; with 0 it keeps waiting', async () => {
    const link = await faultyLink(BASE!);
    link.stall();
    const bounded = await open(link.url, '1');
    const unbounded = await open(link.url, '0');
    let outcome = 'waiting';
    const pending = sql`select 1 as one`.execute(unbounded.db).then(
      () => (outcome = 'answered'),
      () => (outcome = 'refused'),
    );

    const refused = await sql`select 1 as one`.execute(bounded.db).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectionLost);
    expect(refused).toMatchObject({ code: 'unavailable' });
    // The bounded query was refused after its second; the unbounded one, sent before it, is still waiting a second on.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(outcome).toBe('waiting');

    link.cut(); // its connection ends, so the database can be closed after the test
    await pending;
    expect(outcome).toBe('refused');
  });
});
