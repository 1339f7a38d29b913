/**
 * At-least-once across a crash (docs/notifications.md#message-ids): a process killed between its POST and the record leaves the row
 * leased; the next process delivers it again, with the same ids, once the lease runs out. Real processes, the
 * run's database (a SQLite file, or a PostgreSQL schema in the postgres project).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../src/notifications/dispatcher-job.ts';
import { backendEnv } from '../support/databases.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { startProcess } from '../support/process.ts';
import { eventually, startReceiver } from '../support/receiver.ts';
import { tempDir } from '../support/temp-dir.ts';

const ADMIN = 'restart-admin';

async function staff(base: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as any;
}

describe('a dispatcher killed mid-delivery', () => {
  it('delivers again after a restart, with the same webhook-id and uniqueMessageId, and records the attempt', { timeout: LEASE_MS + 30_000 }, async () => {
    const receiver = await startReceiver();
    const backend = backendEnv();
    afterThisTest(() => backend.cleanup());
    const env = {
      DATABASE_URL: `file:${join(tempDir(), 'restart.db')}`,
      ...backend.env,
      ADMIN_TOKEN: ADMIN,
      MERCHANT_ENDPOINT: receiver.url,
      MERCHANT_SIGNING_KEY: 'restart-key',
      LOG_LEVEL: 'warn',
    };
    const first = await startProcess(env);
    const order = await (await fetch(`${first.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) })).json();
    receiver.hang(true);
    const dueDate = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const opened = await staff(first.url, 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 12, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["INVOICE"] }) { claimId } }', {
      o: order.orderNumber,
      d: dueDate,
    });
    expect(opened.errors).toBeUndefined();
    await receiver.waitFor(1);
    first.child.kill('SIGKILL'); // claimed and sent, never recorded
    await first.exited;

    receiver.hang(false);
    const killedAt = Date.now();
    const second = await startProcess(env);
    await receiver.waitFor(2, LEASE_MS + 10_000);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 5_000);
    const [before, after] = receiver.requests;
    expect(after!.headers['webhook-id']).toBe(before!.headers['webhook-id']);
    expect(after!.body.uniqueMessageId).toBe(before!.body.uniqueMessageId);
    const list = await eventually(async () => {
      const res = await staff(second.url, '{ notifications { edges { node { status attempts { attempt statusCode } } } } }');
      const node = res.data.notifications.edges[0]?.node;
      return node?.status === 'DELIVERED' ? node : null;
    });
    expect(list.attempts).toEqual([{ attempt: 1, statusCode: 200 }]);
    expect(receiver.schemaErrors).toEqual([]);
  });
});
