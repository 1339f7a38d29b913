/**
 * LIMIT and OFFSET on SQLite (src/db/sqlite-query-compiler.ts): never a bare bound parameter, which would make SQLite
 * plan the kept statement again on every run, and still the rows asked for.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type AppDatabase } from '../../src/db/database.ts';

describe('LIMIT and OFFSET on SQLite', () => {
  let database: AppDatabase;
  beforeAll(async () => {
    database = await createDatabase({ kind: 'sqlite', path: ':memory:' });
    await database.migrate();
    const now = Date.now();
    await database.db
      .insertInto('sleeve_option_sets')
      .values([1, 2, 3, 4, 5].map((version) => ({ version, body: `{"v":${version}}`, created_at: now })))
      .execute();
  });
  afterAll(() => database.destroy());

  const versions = (limit: number, offset?: number) => {
    const query = database.db.selectFrom('sleeve_option_sets').select('version').orderBy('version', 'desc').limit(limit);
    return offset === undefined ? query : query.offset(offset);
  };

  it('writes them as expressions, not bare parameters, so a kept statement keeps its plan', () => {
    const { sql, parameters } = versions(2, 1).compile();
    expect(sql).toMatch(/ limit \+\? offset \+\?$/);
    expect(sql).not.toMatch(/(limit|offset) \?/);
    expect(parameters).toEqual([2, 1]);
  });

  it('writes any other expression as it was', async () => {
    const query = database.db.selectFrom('sleeve_option_sets').select('version').orderBy('version').limit(sql<number>`1 + 1`).offset(sql.lit(1));
    expect(query.compile().sql).toMatch(/ limit 1 \+ 1 offset 1$/);
    expect((await query.execute()).map((row) => row.version)).toEqual([2, 3]);
  });

  it('returns the rows asked for, the same statement with other values', async () => {
    expect((await versions(2).execute()).map((row) => row.version)).toEqual([5, 4]);
    expect((await versions(3).execute()).map((row) => row.version)).toEqual([5, 4, 3]);
    expect((await versions(2, 3).execute()).map((row) => row.version)).toEqual([2, 1]);
    expect(await versions(0).execute()).toEqual([]);
    expect((await versions(10, 4).execute()).map((row) => row.version)).toEqual([1]);
  });

  it('still refuses a limit that is not a whole number, as a bare parameter was refused', async () => {
    const query = database.db.selectFrom('sleeve_option_sets').select('version');
    await expect(query.limit('two' as unknown as number).execute()).rejects.toThrow(/datatype mismatch/);
    await expect(query.limit(2.5).execute()).rejects.toThrow(/datatype mismatch/);
    await expect(query.limit(1).offset(0.5).execute()).rejects.toThrow(/datatype mismatch/);
  });
});
