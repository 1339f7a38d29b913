/**
 * What a fixed cost per request does to the bare POST baseline's figure on this machine (issue 16's GraphQL figure
 * is a ratio to that baseline): bare node:http servers (bare-server.ts) that do BARE_EXTRA_US microseconds of busy
 * work per POST before answering, each loaded against a plain one in one-second slices, in ABBA order (as
 * observability.ts), with the body of the GraphQL figure. For each extra cost it prints the ratio of requests per
 * second and both servers' CPU time per request (from /proc: Linux only), so the CPU a request costs beyond the work
 * added shows: on a machine whose load generator shares the cores, a slower server also pays more per request
 * elsewhere (likeliest, not proven: its answers more often find the client asleep, and waking it costs the server).
 *
 * `npx tsx bench/fixed-cost.ts` (BENCH_ROUNDS, default 3; BENCH_SECONDS of slices per server and cost, default 5;
 * FIXED_COSTS_US, default 3,6,9,12).
 */
import { pathToFileURL } from 'node:url';
import { abbaSide, loadInProcess, median, row, startChild, type Child } from './lib.ts';
import { cpuSeconds } from './pinning.ts';

const BODY = JSON.stringify({ query: '{ sleeveOptions { sizes fonts threads charLimit } }' });

/** CPU time the process has used, in microseconds; null where /proc is not there. */
function cpuMicros(child: Child): number | null {
  const seconds = cpuSeconds(child.process.pid);
  return seconds === null ? null : seconds * 1e6;
}

interface Side {
  requests: number;
  seconds: number;
  cpu: number | null;
}

/** ABBA one-second slices between `plain` and `costly`: requests, seconds and CPU of each side. */
async function pair(plain: Child, costly: Child, seconds: number): Promise<[Side, Side]> {
  const sides: [Side, Side] = [{ requests: 0, seconds: 0, cpu: 0 }, { requests: 0, seconds: 0, cpu: 0 }];
  const servers = [plain, costly];
  for (let slice = 0; slice < 2 * seconds; slice++) {
    const which = abbaSide(slice);
    const before = cpuMicros(servers[which]!);
    const run = await loadInProcess({ url: servers[which]!.url, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, duration: 1 });
    const after = cpuMicros(servers[which]!);
    const side = sides[which]!;
    side.requests += run.rps;
    side.seconds += 1;
    side.cpu = before === null || after === null || side.cpu === null ? null : side.cpu + (after - before);
  }
  return sides;
}

export async function benchFixedCost(costs: number[], rounds: number, seconds: number): Promise<void> {
  const plain = await startChild('bench/bare-server.ts');
  const costly = await Promise.all(costs.map((us) => startChild('bench/bare-server.ts', { BARE_EXTRA_US: String(us) })));
  try {
    for (const server of [plain, ...costly]) await loadInProcess({ url: server.url, method: 'POST', body: BODY, duration: 1 }); // warm-up
    const widths = [22, 10, 13, 26, 18, 14];
    console.log(`a fixed cost per request on the bare POST baseline: ${rounds} rounds of ${seconds} one-second slices on each server, ABBA`);
    console.log(row(['extra work / request', 'req/s', 'plain req/s', 'ratio (rounds)', 'CPU µs / request', 'plain CPU µs'], widths));
    for (const [i, us] of costs.entries()) {
      const ratios: number[] = [];
      const rates: Array<[number, number]> = [];
      const cpus: Array<[number, number]> = [];
      for (let r = 0; r < rounds; r++) {
        const [a, b] = await pair(plain, costly[i]!, seconds);
        ratios.push(b.requests / a.requests);
        rates.push([b.requests / b.seconds, a.requests / a.seconds]);
        if (a.cpu !== null && b.cpu !== null) cpus.push([b.cpu / b.requests, a.cpu / a.requests]);
      }
      const cpu = (k: 0 | 1) => (cpus.length ? median(cpus.map((c) => c[k])).toFixed(1) : 'n/a');
      const spread = ratios.map((x) => x.toFixed(2)).join(', ');
      console.log(row([`${us} µs`, median(rates.map((x) => x[0])).toFixed(0), median(rates.map((x) => x[1])).toFixed(0), `${median(ratios).toFixed(2)} (${spread})`, cpu(0), cpu(1)], widths));
    }
  } finally {
    await Promise.all([plain, ...costly].map((server) => server.stop()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const costs = (process.env.FIXED_COSTS_US ?? '3,6,9,12').split(',').map(Number);
  benchFixedCost(costs, Number(process.env.BENCH_ROUNDS ?? 3), Number(process.env.BENCH_SECONDS ?? 5)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
