/**
 * Queries compiled once (src/db/compiled-once.ts): the SQL kysely compiles, sent again with each call's values in
 * their places and the constants of the query kept; one compilation per shape (the keys of the values).
 */
import { describe, expect, it } from 'vitest';
import { compiledOnce, compiledPerCount } from '../../src/db/compiled-once.ts';
import { createDatabase } from '../../src/db/database.ts';
import type { Db } from '../../src/db/database.ts';

describe('compiledOnce', () => {
  it('runs the query kysely builds, with each call its own values and the constants kept', async () => {
    const app = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await app.migrate();
    let builds = 0;
    const insert = compiledOnce((db: Db, row: { name: string; value: number }) => {
      builds++;
      return db.insertInto('counters').values(row);
    });
    const bump = compiledOnce((db: Db, v: { name: string; by: number }) => {
      builds++;
      return db.updateTable('counters').set((eb) => ({ value: eb('value', '+', v.by) })).where('name', '=', v.name).where('value', '>', 0).returning('value');
    });
    await insert(app.db, { name: 'a', value: 10 });
    await insert(app.db, { name: 'b', value: 20 });
    expect((await bump(app.db, { name: 'a', by: 1 })).rows).toEqual([{ value: 11 }]);
    expect((await bump(app.db, { name: 'b', by: 5 })).rows).toEqual([{ value: 25 }]);
    expect(Number((await bump(app.db, { name: 'none', by: 1 })).rows.length)).toBe(0);
    expect(builds).toBe(2);
    // Another shape (the keys in another order) is compiled on its own, to the same effect.
    await insert(app.db, { value: 30, name: 'c' } as { name: string; value: number });
    expect(builds).toBe(3);
    const rows = await app.db.selectFrom('counters').select(['name', 'value']).where('name', 'in', ['a', 'b', 'c']).orderBy('name').execute();
    expect(rows.map((r) => [r.name, Number(r.value)])).toEqual([['a', 11], ['b', 25], ['c', 30]]);
    await app.destroy();
  });

  it('works inside a transaction, and reports the rows a write changed', async () => {
    const app = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await app.migrate();
    const bump = compiledOnce((db: Db, v: { name: string }) => db.updateTable('counters').set((eb) => ({ value: eb('value', '+', 1) })).where('name', '=', v.name));
    const changed = await app.db.transaction().execute(async (trx) => Number((await bump(trx, { name: 'order_number' })).numAffectedRows));
    expect(changed).toBe(1);
    expect(Number((await bump(app.db, { name: 'none' })).numAffectedRows)).toBe(0);
    await app.destroy();
  });
});

describe('compiledPerCount', () => {
  type Row = { name: string; value: number };

  it('inserts each list of rows, compiling once per number of rows', async () => {
    const app = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await app.migrate();
    let builds = 0;
    const insert = compiledPerCount<Row, unknown>(['name', 'value'], (db, rows) => {
      builds++;
      return db.insertInto('counters').values(rows.map((row) => ({ name: row.name, value: row.value })));
    });
    await insert(app.db, [{ name: 'a', value: 1 }, { name: 'b', value: 2 }]);
    await insert(app.db, [{ name: 'c', value: 3 }, { name: 'd', value: 4 }]);
    expect(builds).toBe(1);
    await app.db.transaction().execute((trx) => insert(trx, [{ name: 'e', value: 5 }]));
    expect(builds).toBe(2);
    const rows = await app.db.selectFrom('counters').select(['name', 'value']).where('name', 'in', ['a', 'b', 'c', 'd', 'e']).orderBy('name').execute();
    expect(rows.map((r) => [r.name, Number(r.value)])).toEqual([['a', 1], ['b', 2], ['c', 3], ['d', 4], ['e', 5]]);
    await app.destroy();
  });

  it('refuses a build whose parameters are not the columns in order, and runs nothing', async () => {
    const app = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await app.migrate();
    // Swapped columns, even where a row's two values are alike.
    const swapped = compiledPerCount<{ a: number; b: number }, unknown>(['a', 'b'], (db, rows) => db.insertInto('counters').values(rows.map((row) => ({ name: String(row.b), value: row.a }))));
    await expect(swapped(app.db, [{ a: 7, b: 7 }])).rejects.toThrow(/not each row's a, b/);
    const missing = compiledPerCount<Row, unknown>(['name', 'value'], (db, rows) => db.insertInto('counters').values(rows.map((row) => ({ name: row.name, value: 0 }))));
    await expect(missing(app.db, [{ name: 'y', value: 1 }])).rejects.toThrow(/not each row's/);
    expect(await app.db.selectFrom('counters').select('name').where('name', 'in', ['7', 'y']).execute()).toEqual([]);
    await app.destroy();
  });
});
