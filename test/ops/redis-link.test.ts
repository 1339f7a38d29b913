/**
 * Redis going away while an instance runs (docs/operations.md#when-redis-goes-away) is told: one `warn` line when
 * the connection is lost, one `info` line when it is back (never one per reconnection attempt), and `sleeve_redis_up`
 * on /metrics. Before, nothing was logged and no metric moved. A redis-server of the test's own, on a port of its
 * own, is killed and started again; the shared one is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { freePort } from '../support/ports.ts';
import { startProcess } from '../support/process.ts';
import { eventually } from '../support/receiver.ts';
import { parsePrometheusText } from './prometheus-text.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

/** A throwaway redis-server on `port`, answering PING; stopped after the test. */
async function startRedis(port: number, ...options: string[]): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...options], { stdio: ['ignore', 'pipe', 'pipe'] });
  afterThisTest(async () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  await eventually(() => /Ready to accept connections/u.test(output));
  return child;
}

const stopped = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));

describe.skipIf(!existsSync(REDIS_SERVER))('Redis lost and back', () => {
  it('is one warn line, one info line, and sleeve_redis_up 1 → 0 → 1', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const server = await startProcess({ DATABASE_URL: ':memory:', REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'info' });
    const up = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return parsePrometheusText(text).get('sleeve_redis_up')?.samples[0]?.value;
    };
    const lines = (msg: RegExp) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => msg.test(String(line.msg)));
    await eventually(async () => (await up()) === 1);

    redis.kill('SIGKILL');
    await stopped(redis);
    await eventually(async () => (await up()) === 0);
    // Long enough for several reconnection attempts, each of which was once a candidate for a line of its own.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(lines(/^redis connection lost/u)).toEqual([expect.objectContaining({ level: 'warn' })]);
    expect(lines(/^redis connection back/u)).toEqual([]);

    redis = await startRedis(port);
    await eventually(async () => (await up()) === 1, 15_000);
    await eventually(() => lines(/^redis connection back/u).length > 0);
    expect(lines(/^redis connection back/u)).toEqual([expect.objectContaining({ level: 'info', awaySeconds: expect.any(Number) })]);
    expect(lines(/^redis connection lost/u)).toHaveLength(1);
    // The URL may hold a password: no line of either names it.
    expect(server.output()).not.toContain(`127.0.0.1:${port}`);

    // Closing on purpose is no loss.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(lines(/^redis connection lost/u)).toHaveLength(1);
  });

  it('says why when Redis refuses the password: its code in the warn line and in /ready, never the password', async () => {
    const port = await freePort();
    await startRedis(port, '--requirepass', 'the-right-one');
    const server = await startProcess({ DATABASE_URL: ':memory:', REDIS_URL: `redis://:a-wrong-one@127.0.0.1:${port}`, LOG_LEVEL: 'info' });
    const lost = () => server.output().split('\n').filter((line) => line.includes('redis connection lost'));
    await eventually(() => lost().length > 0, 10_000);
    expect(JSON.parse(lost()[0]!)).toMatchObject({ level: 'warn', failure: 'WRONGPASS' });
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toContain('WRONGPASS');
    expect(server.output()).not.toContain('a-wrong-one');
  });
});
