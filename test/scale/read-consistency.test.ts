/**
 * A delivery read while another instance records an attempt of it lists as many attempts as it counts: the row and
 * its attempts come from one snapshot of the database (readTogether, src/db/transaction.ts). Two real server
 * processes on one PostgreSQL schema and one Redis; A reaches PostgreSQL through a link that holds A's read of the
 * attempts (test/support/faulty-link.ts `pause`) until B's attempt has committed. Before the fix A read the row,
 * then the attempts on their own: a merchant's delivery and a staff notification came back PENDING, no attempt
 * counted, with B's successful attempt listed.
 */
import { describe, expect, it } from 'vitest';
import { sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest, basicAuth, VALID_ORDER } from '../support/gateway.ts';
import { faultyLink, type FaultyLink } from '../support/faulty-link.ts';
import { openChargeback, postJson, staffQuery } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'read-consistency-admin';
const SITE = { VENDOR_SITE_ID: 'site_readconsistency', VENDOR_API_KEY: 'read-consistency-api-key-0123456789' };
const auth = { authorization: basicAuth(SITE.VENDOR_SITE_ID, SITE.VENDOR_API_KEY) };

interface Counted {
  status: string;
  attemptCount: number;
  attempts: Array<{ statusCode: number | null }>;
}

/** B, then A through its link to PostgreSQL, on one schema and Redis; the receiver holds every POST unanswered. */
async function instances(env: (receiverUrl: string) => Record<string, string> = () => ({})) {
  const receiver = await startReceiver();
  receiver.hang(true);
  const shared = sharedInstancesEnv('readconsistency');
  afterThisTest(shared.cleanup);
  const all = { ...shared.env, ...SITE, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn', ...env(receiver.url) };
  const b = await startProcess(all);
  const link = await faultyLink(shared.env.DATABASE_URL!);
  const a = await startProcess({ ...all, DATABASE_URL: link.url });
  return { a, b, receiver, link };
}

/**
 * Asks A with `read` while its read of `attemptsTable` is held, lets the held POST be answered 200, waits until B
 * reads it `DELIVERED`, then lets A's read go on: A's answer.
 */
async function readAcrossAnAttempt<T>(link: FaultyLink, receiver: Receiver, attemptsTable: string, read: () => Promise<T>, deliveredOnB: () => Promise<boolean>): Promise<T> {
  link.pause(new RegExp(`from "${attemptsTable}"`, 'u'));
  const answer = read();
  await eventually(() => link.held().includes(attemptsTable), 10_000);
  receiver.release();
  await eventually(deliveredOnB, 10_000);
  link.resume();
  return answer;
}

/** Counts what it lists: a delivered one its successful attempt, one still in flight none. */
function agrees(read: Counted) {
  const described = JSON.stringify(read);
  expect(read.attempts.length, described).toBe(read.attemptCount);
  expect(read.status === 'DELIVERED', described).toBe(read.attempts.some((a) => a.statusCode === 200));
}

describe.skipIf(!DATABASE || !REDIS)(
  `a delivery read while the other instance records its attempt${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it("a merchant's list of deliveries counts the attempts it lists", { timeout: 90_000 }, async () => {
      const { a, b, receiver, link } = await instances();
      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const deliveries = `/v1/webhooks/endpoints/${endpoint.body.id}/deliveries`;
      const made = await postJson(b.url, `/v1/webhooks/endpoints/${endpoint.body.id}/test`, {}, auth);
      expect(made.status, JSON.stringify(made.body)).toBe(202);
      await receiver.waitFor(1, 10_000);

      const list = async (base: string) => ((await (await fetch(`${base}${deliveries}`, { headers: auth })).json()) as { data: Counted[] }).data;
      const listed = await readAcrossAnAttempt(link, receiver, 'webhook_delivery_attempts', () => list(a.url), async () => (await list(b.url))[0]?.status === 'DELIVERED');
      expect(listed).toHaveLength(1);
      agrees(listed[0]!);
      // And once the read is over, the attempt is there to see.
      const [after] = await list(a.url);
      expect(after).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });
      agrees(after!);
    });

    it("staff's notification counts the attempts it lists", { timeout: 90_000 }, async () => {
      const { a, b, receiver, link } = await instances((url) => ({ MERCHANT_ENDPOINT: url }));
      const order = await postJson(b.url, '/api/orders', VALID_ORDER);
      await openChargeback(b.url, ADMIN, order.body.orderNumber);
      const [sent] = await receiver.waitFor(1, 10_000);
      const { notifications } = await staffQuery(b.url, ADMIN, '{ notifications(first: 1) { edges { node { id } } } }');
      const id = notifications.edges[0].node.id as string;
      expect(id).toBe(sent!.headers['webhook-id']);

      const NODE = 'query ($id: ID!) { node(id: $id) { ... on Notification { status attemptCount attempts { statusCode } } } }';
      const read = async (base: string): Promise<Counted> => (await staffQuery(base, ADMIN, NODE, { id })).node;
      const seen = await readAcrossAnAttempt(link, receiver, 'outbox_attempts', () => read(a.url), async () => (await read(b.url)).status === 'DELIVERED');
      agrees(seen);
      const after = await read(a.url);
      expect(after).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });
      agrees(after);
    });
  },
);
