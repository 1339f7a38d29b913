/** Shared pieces of the benchmarks: child servers on port 0, autocannon runs, and the printed table. */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
// autocannon ships no types; this is the slice of its result the benchmarks read.
const autocannon = require('autocannon') as (
  options: Record<string, unknown>,
  callback: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

export const ROOT = resolve(import.meta.dirname, '..');

/**
 * The gateway as `npm start` runs it: plain node on the build (`npm run bench` builds first). Measuring the tsx
 * transform instead measured a different program: esbuild's keepNames adds a call per closure made per request.
 */
export const GATEWAY_ENTRY = 'dist/src/main.js';

/**
 * How node runs a script: TypeScript (the bench's own servers) through tsx, the build as it is, with BENCH_NODE_ARGS
 * (node flags for the gateway only, such as `--cpu-prof --cpu-prof-dir=/tmp/p`: NODE_OPTIONS refuses --cpu-prof).
 */
export function runnerArgs(script: string): string[] {
  if (script.endsWith('.ts')) return ['--import', 'tsx', script];
  return [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), script];
}

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a script (runnerArgs) and waits for its "listening on http://…" line. */
export async function startChild(script: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, runnerArgs(script), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let found = false;
  const url = await new Promise<string>((resolveUrl, reject) => {
    // Read to the end (a full pipe would stop the child), but kept and searched only until the URL is found: a child
    // that logs a lot would otherwise cost a search of everything it wrote per chunk.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (found) return;
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/u.exec(output);
      if (!match) return;
      found = true;
      output = '';
      resolveUrl(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.on('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** In-process autocannon: for scripted request sequences (the orders figure), where the CLI cannot follow. */
export function loadInProcess(options: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolveLoad, reject) => {
    autocannon({ connections: 64, duration: 10, ...options }, (error, result) => {
      if (error) return reject(error);
      resolveLoad(toLoadResult(result));
    });
  });
}

export interface Target {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * One load run from a fresh autocannon process (plain node, not tsx): every target meets the same client, whose
 * state never carries over from the run before.
 */
export function load(target: Target, { connections = 64, duration = 10 } = {}): Promise<LoadResult> {
  const args = [require.resolve('autocannon/autocannon.js'), '--json', '-c', String(connections), '-d', String(duration)];
  if (target.method) args.push('-m', target.method);
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (target.body) args.push('-b', target.body);
  args.push(target.url);
  return new Promise((resolveLoad, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      resolveLoad(toLoadResult(JSON.parse(out) as AutocannonResult));
    });
  });
}

function toLoadResult(result: AutocannonResult): LoadResult {
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Which of two sides the slice `slice` (0, 1, 2, …) goes to, in ABBA order (0 1 1 0 0 1 1 0 …): each side goes first
 * as often as second, so a drift of the shared cores over the run falls on both alike.
 */
export const abbaSide = (slice: number): 0 | 1 => ((slice + (slice >> 1)) % 2) as 0 | 1;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function row(cells: Array<string | number>, widths: number[]): string {
  return cells.map((c, i) => String(c).padEnd(widths[i] ?? 12)).join('');
}

/** Runs `count` jobs, `width` at a time. */
export async function pool(count: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await job(next++);
  }));
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Polls `check` every few milliseconds until it holds; throws after `ms`. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The headers a delivery carries that the direct baseline sends again (those present). */
const FORWARDED = ['content-type', 'accept', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'signature'];

/**
 * One POST as the dispatcher sends it (webhook-client.ts): on `agent`'s kept-alive connections, the answer read to
 * the end; resolves with its status. The direct and durable baselines' senders (bench/webhooks-direct.ts,
 * bench/webhooks-durable.ts).
 */
export function postKeptAlive(agent: Agent, url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The direct baseline of the notification figures (bench/webhooks-direct.ts): the requests a receiver at
 * `receiverUrl` got from the gateway, written to `file` and sent again from a process of their own, as the gateway
 * is, `width` at a time, `passes` times one after another; resolves when that process exits. In the bench's own
 * process the sender shared one thread with the receiver while the gateway had a core of its own, which held the
 * baseline down and flattered the ratio. `sender` another such script, given `extra` arguments after those
 * (bench/webhooks-durable.ts).
 */
export function sendDirect(
  received: ReadonlyArray<{ path: string; headers: Record<string, string>; body: string }>,
  receiverUrl: string,
  file: string,
  width: number,
  passes: number,
  sender = 'bench/webhooks-direct.ts',
  extra: string[] = [],
): Promise<void> {
  const posts = received.map(({ path, headers, body }) => ({
    url: receiverUrl + path,
    headers: Object.fromEntries(FORWARDED.filter((name) => headers[name]).map((name) => [name, headers[name]!])),
    body,
  }));
  writeFileSync(file, JSON.stringify(posts));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...runnerArgs(sender), file, String(width), String(passes), ...extra], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${sender} exited with ${code}`))));
  });
}

/**
 * The direct baseline's rate from the arrival times of its passes (each `perPass` long, one after another): each pass
 * timed on its own, first arrival → last, and the median pass taken. The first runs on a cold process (about half as
 * fast): a single pass measured the sender's warm-up and flattered the ratio.
 */
export function directRate(times: readonly number[], perPass: number, passes: number): { rate: number; passes: number[] } {
  const rates = Array.from({ length: passes }, (_, pass) => {
    const slice = times.slice(pass * perPass, (pass + 1) * perPass);
    return slice.length / ((slice[slice.length - 1]! - slice[0]!) / 1000);
  });
  return { rate: median(rates), passes: rates };
}
