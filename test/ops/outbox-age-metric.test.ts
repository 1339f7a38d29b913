/**
 * `sleeve_outbox_oldest_pending_age_seconds` (docs/operations.md#metrics) is a number of seconds on both databases:
 * on PostgreSQL it was printed `Nan` while a notification was pending, so the one gauge meant to page someone about
 * a stuck outbox said nothing exactly when it mattered.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openClaim } from '../notifications/helpers.ts';
import { forgetSchema, schemaEnv, testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { parsePrometheusText } from './prometheus-text.ts';

const AGE = 'sleeve_outbox_oldest_pending_age_seconds';

/** SQLite's file of the test gateway, or a fresh PostgreSQL schema when TEST_DATABASE_URL is set. */
function databaseEnv(backend: 'sqlite' | 'postgres'): Record<string, string> {
  if (backend === 'sqlite') return { DATABASE_URL: ':memory:' };
  const schema = `age_${randomBytes(5).toString('hex')}`;
  afterThisTest(() => forgetSchema(schema, schema));
  const { DATABASE_URL } = schemaEnv(schema, schema);
  return { DATABASE_URL: DATABASE_URL! };
}

describe.each(['sqlite', 'postgres'] as const)('the oldest pending notification on %s', (backend) => {
  it.skipIf(backend === 'postgres' && !testDatabaseUrl())('is its age in seconds, 0 once none is pending', async () => {
    // No MERCHANT_ENDPOINT: the claim's notification stays pending.
    const t = await testGateway({ env: databaseEnv(backend) });
    const age = async () => {
      const text = await (await t.gateway.fetch(new Request('http://sleeve.test/metrics'))).text();
      const samples = parsePrometheusText(text).get(AGE)?.samples ?? [];
      expect(samples, text.split('\n').filter((line) => line.startsWith(AGE)).join('\n')).toHaveLength(1);
      return samples[0]!.value;
    };
    expect(await age()).toBe(0);
    await openClaim(t);
    await t.clock.advance(90_000);
    expect(await age()).toBe(90);
  });
});
