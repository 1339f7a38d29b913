/**
 * The cost of metrics and request logs (docs/operations.md#what-they-cost, issue 17): GraphQL `{ sleeveOptions }`
 * (the fast JSON path) and REST `GET /api/sleeve-options` against two servers side by side —
 *
 *  - on: the defaults (METRICS=on, LOG_LEVEL=info: a request line for every request, LOG_REQUEST_SCOPE=on; both
 *    targets are reads, which run outside the request scope);
 *  - off: METRICS=off, LOG_LEVEL=warn (no request lines), LOG_REQUEST_SCOPE=off.
 *
 * Measured as bench/venue.ts's limiterCost measures the limiter: the load alternates between the two servers in
 * slices of one second, in ABBA order (each goes first as often as second), each slice drained before the next, so
 * a drift of the shared cores falls on both alike. A round is BENCH_SECONDS of load on each server and target, with
 * fresh servers; each round gives one ratio per target; the figure is the median of the rounds' ratios (target
 * ≥ 0.95). The logs go to a file, as a log shipper would read them, not to a pipe this process would have to drain.
 * Both servers run on one core and the load on the other (bench/pinning.ts says why), and each slice also reads the
 * server's CPU from /proc: CPU per request, off's over on's, is printed beside the throughput ratio.
 */
import { openSync, closeSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abbaSide, GATEWAY_ENTRY, loadInProcess, median, ROOT, row, runnerArgs } from './lib.ts';
import { cpuSeconds, PINNED, serverCommand, withLoadPinned } from './pinning.ts';

const GRAPHQL_BODY = JSON.stringify({ query: '{ sleeveOptions { sizes fonts threads charLimit } }' });
const SLICE_SECONDS = 1;

const CONFIGS = {
  on: { METRICS: 'on', LOG_LEVEL: 'info', LOG_REQUEST_SCOPE: 'on' },
  off: { METRICS: 'off', LOG_LEVEL: 'warn', LOG_REQUEST_SCOPE: 'off' },
} as const;
type ConfigName = keyof typeof CONFIGS;
const NAMES = Object.keys(CONFIGS) as ConfigName[];
const TARGETS = ['graphql', 'rest'] as const;
type TargetName = (typeof TARGETS)[number];

/** Requests per second, per target, per configuration: one entry per round; and the server's CPU µs per request. */
export type ObservabilityFigures = Record<TargetName, Record<ConfigName, number[]>> & { cpu: Record<TargetName, Record<ConfigName, number[]>> };

/** One server's figures for one target in one round. */
interface Side {
  rps: number;
  /** The server's CPU (user and system) per request served, in µs. */
  cpuPerRequest: number;
}

interface Server {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The built gateway (GATEWAY_ENTRY) with its stdout in a file; the URL read from the "listening on" line there. */
async function startServer(dir: string, name: string, env: Record<string, string>): Promise<Server> {
  const logFile = join(dir, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const { command, args } = serverCommand(runnerArgs(GATEWAY_ENTRY));
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `file:${join(dir, `${name}.db`)}`, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000', ...env },
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let waited = 0; ; waited += 100) {
    const match = /listening on (http:\/\/\S+)/u.exec(readFileSync(logFile, 'utf8'));
    if (match) return { url: match[1]!, pid: child.pid, stop: () => (child.kill('SIGTERM'), exited) };
    if (child.exitCode !== null || waited > 30_000) throw new Error(`${name} did not start:\n${readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function target(url: string, name: TargetName): Record<string, unknown> {
  return name === 'rest'
    ? { url: `${url}/api/sleeve-options` }
    : { url: `${url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: GRAPHQL_BODY };
}

/**
 * One round: fresh servers, `seconds` one-second slices on each server per target, in ABBA order. The round's
 * `first` server is started, warmed and loaded first: an A/A run (both servers "off") gave the first-started one
 * 0.86–1.00 of the other in five rounds of one run, so rounds alternate which one that is.
 */
async function round(seconds: number, first: ConfigName): Promise<Record<TargetName, Record<ConfigName, Side>>> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-observability-'));
  const servers = {} as Record<ConfigName, Server>;
  const order = first === NAMES[0] ? NAMES : [...NAMES].reverse();
  try {
    for (const name of order) servers[name] = await startServer(dir, name, CONFIGS[name]);
    const result = {} as Record<TargetName, Record<ConfigName, Side>>;
    for (const targetName of TARGETS) {
      for (const name of order) await loadInProcess({ ...target(servers[name].url, targetName), duration: 2 }); // warm-up
      const sides = { on: { rps: 0, cpuPerRequest: 0 }, off: { rps: 0, cpuPerRequest: 0 } };
      const cpu = { on: 0, off: 0 };
      for (let slice = 0; slice < 2 * seconds; slice++) {
        // ABBA: slices 0 1 2 3 … go to first, second, second, first …
        const name = order[abbaSide(slice)]!;
        const before = cpuSeconds(servers[name].pid) ?? Number.NaN;
        const run = await loadInProcess({ ...target(servers[name].url, targetName), duration: SLICE_SECONDS });
        if (run.failures > 0) throw new Error(`${name} ${targetName}: ${run.failures} failed requests`);
        cpu[name] += (cpuSeconds(servers[name].pid) ?? Number.NaN) - before;
        sides[name].rps += run.rps / seconds;
      }
      // Every slice is SLICE_SECONDS long: requests served = rps × seconds × SLICE_SECONDS.
      for (const name of NAMES) sides[name].cpuPerRequest = (cpu[name] * 1e6) / (sides[name].rps * seconds * SLICE_SECONDS);
      result[targetName] = sides;
    }
    return result;
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchObservability(rounds = Number(process.env.BENCH_ROUNDS ?? 3), seconds = Number(process.env.BENCH_SECONDS ?? 10)): Promise<ObservabilityFigures> {
  const empty = () => ({ graphql: { on: [], off: [] }, rest: { on: [], off: [] } });
  const figures: ObservabilityFigures = { ...empty(), cpu: empty() };
  console.log(`metrics and request logs: on vs off, ${rounds} rounds of ${seconds} one-second slices on each${PINNED ? ' (servers pinned to one core, the load to the other: bench/pinning.ts)' : ''}…`);
  await withLoadPinned(async () => {
    for (let r = 1; r <= rounds; r++) {
      const result = await round(seconds, NAMES[(r - 1) % 2]!);
      for (const t of TARGETS) {
        for (const name of NAMES) {
          figures[t][name].push(result[t][name].rps);
          figures.cpu[t][name].push(result[t][name].cpuPerRequest);
        }
      }
      const ratios = TARGETS.map((t) => `${t} ${(result[t].on.rps / result[t].off.rps).toFixed(3)} (CPU µs/request ${result[t].on.cpuPerRequest.toFixed(1)} vs ${result[t].off.cpuPerRequest.toFixed(1)})`);
      console.log(`round ${r} on/off: ${ratios.join(', ')}`);
    }
  });
  return figures;
}

/** The median of each round's ratio (a round's runs are interleaved in time). */
const ratio = (a: number[], b: number[]) => median(a.map((value, i) => value / b[i]!));

export function printObservabilityFigure(figures: ObservabilityFigures): void {
  const rounds = figures.graphql.on.length;
  console.log(`metrics and request logs, on vs off (${rounds} rounds, 64 connections, one-second slices alternating between the servers)`);
  const widths = [40, 12, 12, 10, 24, 16];
  console.log(row(['target', 'on req/s', 'off req/s', 'on / off', 'rounds', 'CPU off / on'], widths));
  const labels: Record<TargetName, string> = { graphql: 'GraphQL { sleeveOptions } (fast path)', rest: 'REST GET /api/sleeve-options' };
  for (const t of TARGETS) {
    const f = figures[t];
    const perRound = f.on.map((value, i) => (value / f.off[i]!).toFixed(2)).join(', ');
    const cpu = figures.cpu[t];
    console.log(row([labels[t], median(f.on).toFixed(0), median(f.off).toFixed(0), ratio(f.on, f.off).toFixed(3), perRound, ratio(cpu.off, cpu.on).toFixed(3)], widths));
  }
  console.log('on / off: the median of the rounds\' ratios (target ≥ 0.95); on = the defaults, off = METRICS=off LOG_LEVEL=warn LOG_REQUEST_SCOPE=off');
  console.log('CPU off / on: the servers\' own CPU per request (user and system, /proc), off\'s over on\'s: the requests a core serves with them on, as a share of off');
}

// `tsx bench/observability.ts` runs this figure alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  benchObservability()
    .then(printObservabilityFigure)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
