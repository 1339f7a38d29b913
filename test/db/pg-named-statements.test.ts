/**
 * Named statements on PostgreSQL (docs/running.md#named-statements-on-postgresql): the gateway's parameterised
 * statements are prepared once per connection instead of parsed and planned on every run; and a migration of
 * another instance that changes a table's columns under a prepared `select *` costs one retryable 503, not a
 * connection that fails that statement for ever.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StatementOutdated } from '../../src/db/connection-loss.ts';
import { clientWithNamedStatements, isStalePlan, StatementNames } from '../../src/db/pg-named-statements.ts';
import { dropSchema, openPostgresWith, testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';

const BASE = testDatabaseUrl();

describe('statement names', () => {
  it('gives each text one name, none past the cap, and a new one after a stale plan', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('select $1');
    expect(names.nameOf('select $1')).toBe(first);
    const second = names.nameOf('select $1, $2');
    expect(second).not.toBe(first);
    expect(names.nameOf('select $1, $2, $3')).toBeUndefined();
    names.rename('select $1');
    expect(names.nameOf('select $1')).not.toBe(first);
    names.rename('select $1, $2, $3'); // never named: stays unnamed, takes no place
    expect(names.nameOf('select $1, $2, $3')).toBeUndefined();
  });

  it('takes only the stale-plan refusal for one, in any server language, not every "feature not supported"', () => {
    const refusal = (message: string, fields: Record<string, string>) => Object.assign(new Error(message), fields);
    expect(isStalePlan(refusal('cached plan must not change result type', { code: '0A000', routine: 'RevalidateCachedQuery' }))).toBe(true);
    expect(isStalePlan(refusal('le plan mis en cache ne doit pas modifier le type en résultat', { code: '0A000', routine: 'RevalidateCachedQuery' }))).toBe(true);
    expect(isStalePlan(refusal('FOR UPDATE is not allowed with aggregate functions', { code: '0A000', routine: 'CheckSelectLocking' }))).toBe(false);
    expect(isStalePlan(refusal('cached plan must not change result type', { code: '42P01' }))).toBe(false);
  });
});

describe.runIf(BASE)('named statements on PostgreSQL', () => {
  async function scratchSchema() {
    const schema = `named_${randomBytes(5).toString('hex')}`;
    afterThisTest(() => dropSchema(BASE!, schema));
    const database = await openPostgresWith(BASE!, { schema });
    await sql`create table items (id int primary key, label text not null)`.execute(database.db);
    await sql`insert into items values (1, 'one'), (2, 'two')`.execute(database.db);
    return { schema, database };
  }

  it('prepares a parameterised statement of the gateway once on its connection, and not BEGIN or COMMIT', async () => {
    const { database } = await scratchSchema();
    await database.db.transaction().execute(async (trx) => {
      for (const id of [1, 2, 1]) await trx.selectFrom('items' as never).select('label' as never).where('id' as never, '=', id as never).execute();
    });
    // The same connection afterwards (the pool's only one so far): what BEGIN, the reads and COMMIT left prepared.
    const rows = (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db)).rows;
    expect(rows.map((row) => row.statement)).toEqual(['select "label" from "items" where "id" = $1']);
  });

  it('answers 503 once when another instance changes the columns under a prepared select *, then reads the new ones', async () => {
    const { schema, database } = await scratchSchema();
    const readOne = () => database.db.selectFrom('items' as never).selectAll().where('id' as never, '=', 1 as never).executeTakeFirst();
    expect(await readOne()).toEqual({ id: 1, label: 'one' });

    const other = new pg.Client({ connectionString: BASE });
    await other.connect();
    afterThisTest(() => other.end());
    await other.query(`alter table ${schema}.items add column colour text not null default 'red'`);

    const refused = await readOne().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StatementOutdated);
    expect(refused).toMatchObject({ code: 'unavailable', driverCode: '0A000', details: { retryAfter: 1 } });
    expect((refused as { cause?: { routine?: string } }).cause?.routine).toBe('RevalidateCachedQuery'); // what isStalePlan reads
    expect(await readOne()).toEqual({ id: 1, label: 'one', colour: 'red' });
  });

  it('runs a query of pg itself unchanged: a text with no parameters, a config object', async () => {
    const NamedClient = clientWithNamedStatements(pg.Client);
    const client = new NamedClient({ connectionString: BASE });
    await client.connect();
    afterThisTest(() => client.end());
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect((await client.query({ text: 'select $1::int as two', values: [2] })).rows).toEqual([{ two: 2 }]);
    expect((await client.query('select $1::int as three', [3])).rows).toEqual([{ three: 3 }]);
    const prepared = await client.query('select name, statement from pg_prepared_statements');
    expect(prepared.rows).toEqual([{ name: expect.stringMatching(/^sleeve_\d+$/u), statement: 'select $1::int as three' }]);
  });
});
