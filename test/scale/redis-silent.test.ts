/**
 * Redis refused or silent (docs/operations.md#when-redis-goes-away): a real gateway process reaches Redis through a
 * link the test breaks (test/support/faulty-link.ts). Requests keep being answered, their rate limits counted in
 * memory, and SIGTERM still exits 0. Before, with the link frozen (a partition: nothing passes, nothing closes),
 * every rate-limited request waited for Redis without end (one was answered after 163 s, when the link came back),
 * and SIGTERM waited on Redis's answer to QUIT; with it refused, each request waited for ioredis's next reconnect,
 * longer with each backoff.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { faultyLink, type FaultyLink } from '../support/faulty-link.ts';
import { startProcess, type ServerProcess } from '../support/process.ts';

const REDIS = process.env.TEST_REDIS_URL;
/** Far above what an answer takes here (milliseconds): past it the request is taken to hang. */
const ANSWER_BOUND_MS = 4_000;

async function gatewayBehind(link: FaultyLink): Promise<ServerProcess> {
  const server = await startProcess({ DATABASE_URL: ':memory:', REDIS_URL: link.url, REDIS_PREFIX: `silent-${randomBytes(4).toString('hex')}:`, RATE_LIMIT_SUBJECT_READ: '5' });
  afterThisTest(async () => void server.child.kill('SIGKILL'));
  return server;
}

const send = (server: ServerProcess, path: string, init: RequestInit = {}) =>
  fetch(server.url + path, { ...init, signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
const create = (server: ServerProcess, email: string) =>
  send(server, '/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...VALID_ORDER, email }) });

/** Reads, creates, GraphQL and lookups are answered; the per-order lookup limit (5 here) is still kept. */
async function expectServed(server: ServerProcess, tag: string): Promise<void> {
  expect((await send(server, '/api/sleeve-options')).status).toBe(200);
  const graphql = await send(server, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ sleeveOptions { charLimit } }' }) });
  expect(graphql.status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await create(server, `${tag}${i}@example.com`)).status).toBe(201);
  const order = (await (await create(server, `${tag}-lookup@example.com`)).json()) as { orderNumber: string; payToken: string };
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await send(server, `/api/orders/${order.orderNumber}?t=${order.payToken}`)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
}

describe.skipIf(!REDIS)(`a gateway whose Redis goes away${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  it('keeps answering and limiting while the link to Redis is silent, and exits 0 on SIGTERM', async () => {
    const link = await faultyLink(REDIS!);
    const server = await gatewayBehind(link);
    await expectServed(server, 'before');
    link.freeze();
    await expectServed(server, 'frozen');
    // Not ready, saying why in words that do not contradict it (it said "redis ready" while Redis answered nothing).
    const ready = await send(server, '/ready');
    const { checks } = (await ready.json()) as { checks: { redis: string } };
    expect([ready.status, checks.redis]).toEqual([503, expect.not.stringMatching(/\bready\b/u)]);
    expect(checks.redis).toMatch(/did not answer|no answer/u);
    server.child.kill('SIGTERM');
    const exit = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
    expect(exit).toBe(0);
  });

  it('keeps answering and limiting while Redis refuses, without waiting for its reconnections', async () => {
    const link = await faultyLink(REDIS!);
    const server = await gatewayBehind(link);
    await expectServed(server, 'before');
    link.cut();
    await expectServed(server, 'cut-1');
    await expectServed(server, 'cut-2');
    link.restore();
  });
});
