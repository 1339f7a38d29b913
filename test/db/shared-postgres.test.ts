/**
 * A PostgreSQL database shared with other deployments (or test runs), whose schemas come and go: starting an instance
 * must not fail because of them. kysely's migrator lists every table of every schema before it migrates, and that
 * listing fails with 3F000 when a schema is dropped in the middle of it (src/db/database.ts `migrate`).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { churnOtherSchemas, dropSchema, testDatabaseUrl } from '../support/databases.ts';

const BASE = testDatabaseUrl();

describe.runIf(BASE)('instances starting on a shared PostgreSQL database', () => {
  it('migrate a fresh schema, and start again on a migrated one, while other schemas are made and dropped', { timeout: 60_000 }, async () => {
    const churn = await churnOtherSchemas(BASE!);
    const schemas: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const schema = `shared_${randomBytes(5).toString('hex')}`;
        schemas.push(schema);
        const url = new URL(BASE!);
        url.searchParams.set('schema', schema);
        for (const start of ['first', 'again']) {
          const database = await createDatabase({ kind: 'postgres', url: url.toString() });
          try {
            await expect(database.migrate(), `${start} start on ${schema}`).resolves.toBeUndefined();
            await expect(database.check()).resolves.toBeUndefined();
          } finally {
            await database.destroy();
          }
        }
      }
    } finally {
      await churn.stop();
      await Promise.all(schemas.map((schema) => dropSchema(BASE!, schema)));
    }
    expect(churn.made()).toBeGreaterThan(0);
  });
});
