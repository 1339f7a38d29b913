/**
 * The PostgreSQL schemas the test gateways of one file share one after another (test/support/schema-pool.ts): the
 * next test finds what a freshly migrated schema holds, and a schema whose shape a test changed is not reused.
 * The tests run in order and depend on each other: each looks at what the one before left.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BACKEND } from '../support/databases.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';

const schemaOf = async (t: TestGateway) => (await sql<{ name: string }>`select current_schema() as name`.execute(t.gateway.database.db)).rows[0]!.name;
const counters = async (t: TestGateway) => (await sql<{ name: string; value: number }>`select name, value from counters order by name`.execute(t.gateway.database.db)).rows;

describe.runIf(BACKEND === 'postgres')('a test schema handed to the next test', () => {
  let used = '';
  let seeded: unknown[] = [];
  let firstOrder = '';

  it('is freshly migrated the first time', async () => {
    const t = await testGateway();
    used = await schemaOf(t);
    seeded = await counters(t);
    expect(seeded).toHaveLength(2);
    firstOrder = (await t.createOrder()).orderNumber;
    await t.createOrder({ email: 'grace@example.com' });
  });

  it('is the same schema, emptied, with the rows its migrations seed as they were', async () => {
    const t = await testGateway();
    expect(await schemaOf(t)).toBe(used);
    expect(await counters(t)).toEqual(seeded);
    const orders = await sql<{ n: number }>`select count(*)::int as n from orders`.execute(t.gateway.database.db);
    expect(orders.rows[0]!.n).toBe(0);
    expect((await t.createOrder()).orderNumber).toBe(firstOrder);
    // Two gateways in one test get two schemas.
    expect(await schemaOf(await testGateway())).not.toBe(used);
    // A test that changes the schema's shape (decide-order-atomic.test.ts leaves a function behind).
    await sql.raw(`create function left_behind() returns int language sql as 'select 1'`).execute(t.gateway.database.db);
  });

  it('is not reused once a test changed its shape', async () => {
    const t = await testGateway();
    const schema = await schemaOf(t);
    expect(schema).not.toBe(used);
    const functions = await sql<{ n: number }>`select count(*)::int as n from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}`.execute(t.gateway.database.db);
    expect(functions.rows[0]!.n).toBe(0);
    const left = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${used}`.execute(t.gateway.database.db);
    expect(left.rows[0]!.n).toBe(0);
  });
});
