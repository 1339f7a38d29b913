/**
 * A database that refuses new connections (`ALTER DATABASE … ALLOW_CONNECTIONS false` during maintenance, SQLSTATE
 * 55000 "database … is not currently accepting connections") is an outage like any other loss of the database
 * (docs/operations.md#when-postgresql-goes-away): 503 with Retry-After, not 500. The test makes a database of its own;
 * the shared one is never altered.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest, testGateway, VALID_ORDER } from '../support/gateway.ts';

describe.skipIf(!testDatabaseUrl())('PostgreSQL refusing new connections to the database', () => {
  it('answers 503 unavailable with Retry-After, and serves again once it accepts them', async () => {
    const base = testDatabaseUrl()!;
    const name = `refusing_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    afterThisTest(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const url = new URL(base);
    url.pathname = `/${name}`;
    const t = await testGateway({ env: { DATABASE_URL: url.toString() } });
    expect((await t.rest('POST', '/api/orders', VALID_ORDER)).status).toBe(201);

    // Maintenance: no new connection, and the open ones ended.
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    // Several: the first may still meet a connection the pool has not yet heard was ended; the others connect anew.
    for (let i = 0; i < 3; i++) {
      const refused = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'grace@example.com' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toMatchObject({ ok: false, code: 'unavailable', retryable: true });
    }

    await admin.query(`alter database ${name} allow_connections true`);
    expect((await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'grace@example.com' })).status).toBe(201);
  });
});
