/**
 * A read of rows and what belongs to them sees one state of the database (readTogether, src/db/transaction.ts), as
 * another instance writes: a delivery lists as many attempts as it counts, a claim is EVIDENCE_SUBMITTED exactly
 * when no evidence is missing, a page of orders or endpoints counts what it lists. Two real server processes on one PostgreSQL
 * schema and one Redis; A reaches PostgreSQL through a link that holds one of A's statements (faulty-link.ts
 * `pause`) until B's write has committed. Before the fix A read them one after the other: a merchant's delivery and
 * a staff notification came back PENDING, no attempt counted, with B's successful attempt listed; a claim OPEN with
 * nothing missing; a page of one order with a totalCount of 2.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, VALID_ORDER } from '../support/gateway.ts';
import type { FaultyLink } from '../support/faulty-link.ts';
import { endpointDeliveries, openChargeback, postJson, startOneBehindLink, staffQuery } from '../support/instances.ts';
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
  return { receiver, ...(await startOneBehindLink('readconsistency', { ...SITE, ADMIN_TOKEN: ADMIN, ...env(receiver.url) })) };
}

/**
 * Asks A with `read` while A's first statement matching `pauseAt` is held at its link, makes `change` (through B),
 * then lets A's read go on: A's answer.
 */
async function readAcross<T>(link: FaultyLink, pauseAt: RegExp, read: () => Promise<T>, change: () => Promise<unknown>): Promise<T> {
  link.pause(pauseAt);
  const answer = read();
  await eventually(() => pauseAt.test(link.held()), 10_000);
  await change();
  link.resume();
  return answer;
}

/** As `readAcross` across a held POST answered 200, until B reads it delivered. */
function readAcrossAnAttempt<T>(link: FaultyLink, receiver: Receiver, attemptsTable: string, read: () => Promise<T>, deliveredOnB: () => Promise<boolean>): Promise<T> {
  return readAcross(link, new RegExp(`from "${attemptsTable}"`, 'u'), read, async () => {
    receiver.release();
    await eventually(deliveredOnB, 10_000);
  });
}

/** Counts what it lists: a delivered one its successful attempt, one still in flight none. */
function agrees(read: Counted) {
  const described = JSON.stringify(read);
  expect(read.attempts.length, described).toBe(read.attemptCount);
  expect(read.status === 'DELIVERED', described).toBe(read.attempts.some((a) => a.statusCode === 200));
}

describe.skipIf(!DATABASE || !REDIS)(
  `a read while the other instance writes what it reads${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it("a merchant's list of deliveries counts the attempts it lists", { timeout: 90_000 }, async () => {
      const { a, b, receiver, link } = await instances();
      const endpoint = await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth);
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const made = await postJson(b.url, `/v1/webhooks/endpoints/${endpoint.body.id}/test`, {}, auth);
      expect(made.status, JSON.stringify(made.body)).toBe(202);
      await receiver.waitFor(1, 10_000);

      const list = (base: string) => endpointDeliveries<Counted>(base, endpoint.body.id, auth);
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

    it("staff's claims show a claim EVIDENCE_SUBMITTED exactly when no evidence it lists is missing", { timeout: 90_000 }, async () => {
      const { a, b, receiver, link } = await instances((url) => ({ MERCHANT_ENDPOINT: url }));
      receiver.hang(false);
      const order = await postJson(b.url, '/api/orders', VALID_ORDER);
      const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const OPEN = 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 9.5, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["PROOF_OF_DELIVERY"] }) { claimId } }';
      const { openClaim } = await staffQuery(b.url, ADMIN, OPEN, { o: order.body.orderNumber, d: dueDate });
      // Its notification sent first: nothing else reads the claim meanwhile.
      await receiver.waitFor(1, 10_000);

      const CLAIMS = '{ claims { totalCount edges { node { status missingEvidenceTypes } } } }';
      const claims = async (base: string) => (await staffQuery(base, ADMIN, CLAIMS)).claims;
      // Held at the page's count, after its rows were read and before their evidence is (a statement without
      // parameters, sent as text each time: the evidence read is a named statement, text only the first time on a
      // connection, and the dispatcher's read at send time may have been that first time).
      const seen = await readAcross(link, /select count\(\*\) as "n" from "claims"/u, () => claims(a.url), async () => {
        const evidence = await postJson(b.url, `/v2/claims/${openClaim.claimId}/evidence/data-points`, { proofsOfDelivery: [{ carrier: 'UPS', trackingNumber: '1Z999' }] }, auth);
        expect(evidence.status, JSON.stringify(evidence.body)).toBe(200);
      });
      const [claim] = seen.edges.map((e: { node: unknown }) => e.node) as Array<{ status: string; missingEvidenceTypes: string[] }>;
      expect(claim!.status === 'EVIDENCE_SUBMITTED', JSON.stringify(claim)).toBe(claim!.missingEvidenceTypes.length === 0);
      expect((await claims(a.url)).edges[0].node).toEqual({ status: 'EVIDENCE_SUBMITTED', missingEvidenceTypes: [] });
    });

    it("staff's page of orders counts the orders it lists", { timeout: 90_000 }, async () => {
      const { a, b, link } = await instances();
      expect((await postJson(b.url, '/api/orders', VALID_ORDER)).status).toBe(201);

      const ORDERS = '{ orders(first: 50) { totalCount edges { node { orderNumber } } } }';
      const orders = async (base: string) => (await staffQuery(base, ADMIN, ORDERS)).orders;
      // The count alone (an order page's, not the metrics' count by status).
      const page = await readAcross(link, /select count\(\*\) as "n" from "orders"/u, () => orders(a.url), async () => {
        expect((await postJson(b.url, '/api/orders', { ...VALID_ORDER, email: 'grace@example.com', name: 'Grace Hopper' })).status).toBe(201);
      });
      expect(page.totalCount, JSON.stringify(page)).toBe(page.edges.length);
      expect((await orders(a.url)).totalCount).toBe(2);
    });

    it("staff's page of webhook endpoints counts the endpoints it lists", { timeout: 90_000 }, async () => {
      const { a, b, receiver, link } = await instances();
      const create = async () => expect((await postJson(b.url, '/v1/webhooks/endpoints', { url: receiver.url }, auth)).status).toBe(201);
      await create();

      const ENDPOINTS = '{ webhookEndpoints(first: 50) { totalCount edges { node { id } } } }';
      const endpoints = async (base: string) => (await staffQuery(base, ADMIN, ENDPOINTS)).webhookEndpoints;
      // The count of every site's endpoints (no parameter, so sent as text: it ends where its Parse message does).
      const page = await readAcross(link, /select count\(\*\) as "n" from "webhook_endpoints"\x00/u, () => endpoints(a.url), create);
      expect(page.totalCount, JSON.stringify(page)).toBe(page.edges.length);
      expect((await endpoints(a.url)).totalCount).toBe(2);
    });
  },
);
