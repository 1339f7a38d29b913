/**
 * The line a lost PostgreSQL connection writes (docs/operations.md#when-postgresql-goes-away) belongs to no request:
 * pg hears of the loss on the connection's socket, whose async context is that of the request that happened to open
 * it, long since answered. It carried that request's id, so an operator following the id found an outage the
 * request never met, and the request then being served (which may meet it) had no line.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { createLogger, runInRequestScope } from '../../src/kernel/logger.ts';
import { testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';

describe.skipIf(!testDatabaseUrl())('a PostgreSQL connection lost', () => {
  it('is logged without the id of the request that opened it, nor of the one running then', async () => {
    const base = testDatabaseUrl()!;
    const lines: Array<Record<string, unknown>> = [];
    // No schema and no migration: opening the database makes no connection, so request A's query opens the first.
    const database = await createDatabase({ kind: 'postgres', url: base }, { logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) });
    afterThisTest(() => database.destroy());
    // Request A opens the connection (the pool has none yet) and is answered.
    const pid = await runInRequestScope('request-a', async () => {
      const { rows } = await database.db.executeQuery<{ pid: number }>({ sql: 'select pg_backend_pid() as pid', parameters: [], query: { kind: 'RawNode' } as never, queryId: { queryId: 'pid' } });
      return rows[0]!.pid;
    });

    // While request B is being served, another session ends A's connection.
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    afterThisTest(() => admin.end());
    await runInRequestScope('request-b', async () => {
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await eventually(() => lines.some((line) => line.msg === 'a database connection was lost') || null);
    });
    const lost = lines.filter((line) => line.msg === 'a database connection was lost');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ level: 'warn', code: '57P01' });
    expect(lost[0]!.requestId).toBeUndefined();
  });
});
