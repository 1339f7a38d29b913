/**
 * `/health` and `/ready` (CONTRACT §7, docs/operations.md#readiness): liveness checks nothing; readiness checks the
 * database with a real round trip and its migrations, Redis when configured, and turns 503 the moment SIGTERM
 * arrives while the rest is still served.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { churnOtherSchemas, sharedInstancesEnv } from '../support/databases.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * A raw connection to `port` that has sent one GET /health and read its answer, left open for the test: `send` asks
 * again on it, `answer` is what came since the last ask, `ended` resolves once the server closed it.
 */
async function keptAlive(port: number) {
  const socket = connect(port, '127.0.0.1');
  afterThisTest(async () => void socket.destroy());
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const send = () => {
    answer = '';
    socket.write('GET /health HTTP/1.1\r\nHost: sleeve.test\r\n\r\n');
  };
  send();
  await vi.waitFor(() => expect(answer).toMatch(/\r\n\r\n[\s\S]+/u));
  return { send, answer: () => answer, ended };
}

describe('/health and /ready', () => {
  it('answer 200 while the instance is up, uncached', async () => {
    const { rest } = await testGateway();
    const health = await rest('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await rest('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: expect.objectContaining({ database: 'ok', shutdown: 'ok' }) });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('/ready is 503 once draining; /health and the API are still served', async () => {
    const { rest, gateway } = await testGateway();
    gateway.drain();
    const ready = await rest('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('unavailable');
    expect(ready.body.checks).toMatchObject({ database: 'ok', shutdown: 'draining' });
    expect((await rest('GET', '/health')).status).toBe(200);
    expect((await rest('GET', '/api/sleeve-options')).status).toBe(200);
  });

  it('keeps connections alive while draining; closing, answers a request on an idle one and then ends it, never under a request', async () => {
    const live = await liveServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    afterThisTest(async () => agent.destroy());
    const get = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        request(`${live.server.url}${path}`, { agent }, (res) => {
          res.resume().on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        }).on('error', reject).end();
      });
    expect(await get('/api/sleeve-options')).toEqual({ status: 200, connection: 'keep-alive' });
    live.gateway.drain();
    expect(await get('/ready')).toEqual({ status: 503, connection: 'keep-alive' });
    // As SIGTERM closes it with DRAIN_SECONDS set (src/main.ts). The connection is idle: closed at once, as it was
    // before, a request a proxy sent on it at that moment was lost, and nginx never sends a POST again
    // (test/deploy/nginx-rolling.test.ts).
    const closed = live.server.close(60_000, { idle: 'retire' });
    expect(await get('/api/sleeve-options')).toEqual({ status: 200, connection: 'close' });
    await closed; // once its last connection has ended, not at the grace
    await expect(get('/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('closes an idle kept-alive connection at once when no drain says a proxy sends here (DRAIN_SECONDS=0)', async () => {
    const live = await liveServer();
    // Longer than the test's timeout, as the grace below: nothing but the close itself may end this connection.
    live.server.server.keepAliveTimeout = 120_000;
    const connection = await keptAlive(live.server.port);
    expect(connection.answer()).toMatch(/^HTTP\/1\.1 200 .*\r\nConnection: keep-alive\r\n/isu);
    // Retiring, the close would wait for this client to leave, or for the grace.
    await Promise.all([live.server.close(60_000), connection.ended]);
  });

  it('/ready is 503 when the database does not answer, and says which check failed', async () => {
    const { rest, gateway } = await testGateway();
    await gateway.database.destroy();
    const ready = await rest('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toMatch(/^database unavailable/u);
    expect(ready.body.checks.shutdown).toBe('ok');
    expect((await rest('GET', '/health')).status).toBe(200);
  });

  it('/ready is 503 while a migration is not applied', async () => {
    const dir = tempDir();
    const { rest, gateway } = await testGateway({ env: { DATABASE_URL: `file:${join(dir, 'ready.db')}` } });
    await sql`delete from kysely_migration where name = '0009-outbox-redeliveries'`.execute(gateway.database.db);
    const ready = await rest('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe('1 migration not applied');
  });

  it.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('/ready on PostgreSQL reads only its own schema: other schemas of the database made and dropped meanwhile change nothing', async () => {
    const shared = sharedInstancesEnv('ready');
    afterThisTest(shared.cleanup);
    const { rest } = await testGateway({ env: shared.env });
    const churn = await churnOtherSchemas(shared.env.DATABASE_URL!);
    const answers: string[] = [];
    try {
      for (let i = 0; i < 60; i++) answers.push((await rest('GET', '/ready')).body.checks.database);
    } finally {
      await churn.stop();
    }
    expect(churn.made()).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer !== 'ok')).toEqual([]);
  });

  it('/ready is 503 when REDIS_URL is set and Redis does not answer', async () => {
    // Port 1: nothing listens there; ioredis keeps trying in the background.
    const { rest } = await testGateway({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    const ready = await rest('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.redis).toMatch(/redis/u);
    expect(ready.body.checks.database).toBe('ok');
  });

  it.runIf(process.env.TEST_REDIS_URL)('/ready checks a real Redis when REDIS_URL is set', async () => {
    const { rest } = await testGateway({ env: { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: `ready-${process.pid}:` } });
    // The connections come up asynchronously after start.
    let ready = await rest('GET', '/ready');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await rest('GET', '/ready');
    }
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: 'ok', redis: 'ok', shutdown: 'ok' });
  });

  it('a real process: SIGTERM turns /ready 503 at once, serves on for DRAIN_SECONDS, then exits 0', async () => {
    const server = await startProcess({ DRAIN_SECONDS: '2', DATABASE_URL: ':memory:' });
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    server.child.kill('SIGTERM');
    // The signal is handled asynchronously: poll briefly for the change.
    let ready = await fetch(`${server.url}/ready`);
    for (let i = 0; i < 20 && ready.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      ready = await fetch(`${server.url}/ready`);
    }
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.shutdown).toBe('draining');
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
    expect(await server.exited).toBe(0);
  });

  it('a real process with DRAIN_SECONDS retires its kept-alive connections: one used after the listener closed is answered, then ended', async () => {
    const server = await startProcess({ DRAIN_SECONDS: '1', DATABASE_URL: ':memory:' });
    const connection = await keptAlive(Number(new URL(server.url).port));
    expect(connection.answer()).toMatch(/^HTTP\/1\.1 200 .*\r\nConnection: keep-alive\r\n/isu);
    server.child.kill('SIGTERM');
    // After DRAIN_SECONDS the listener closes (well inside node's 5 s keep-alive timeout for this connection). Closed
    // with `idle: 'close'`, as DRAIN_SECONDS=0 asks (readiness test above), the connection would end with it, and the
    // request below, sent by a proxy that took it for open, would be lost.
    await vi.waitFor(() => expect(fetch(`${server.url}/health`)).rejects.toThrow(), { timeout: 10_000, interval: 50 });
    connection.send();
    await connection.ended;
    expect(connection.answer()).toMatch(/^HTTP\/1\.1 200 .*\r\nConnection: close\r\n/isu);
    expect(await server.exited).toBe(0);
  });
});
