/**
 * The first figure of `npm run bench`: REST `GET /api/sleeve-options` and GraphQL `{ sleeveOptions }` against bare
 * node:http, each in its own process, loaded in turn by autocannon (64 connections). Two baselines
 * (bench/bare-server.ts): a GET, the yardstick for both doors, and a POST whose JSON body is read and parsed
 * first, which is the least any server answering a GraphQL POST must do. Each round runs every target once, in an
 * order reversed every other round (a drift of the shared cores falls on both ends alike); each round gives its own
 * ratios, and the figure is their median, printed with its spread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_ENTRY, load, median, row, startChild, type Child, type LoadResult, type Target } from './lib.ts';

const GRAPHQL_BODY = JSON.stringify({ query: '{ sleeveOptions { sizes fonts threads charLimit } }' });
const NAMES = ['bare', 'barePost', 'rest', 'graphql'] as const;
type Name = (typeof NAMES)[number];
/**
 * The order of a round: each ratio's two targets run back to back (bare GET with REST, bare POST with GraphQL). On
 * the shared cores the machine's speed drifts over a run; in five runs of 2026-11-29 with the pairs 20 s apart, the
 * GraphQL figure's third round was always its lowest (0.41–0.54 against 0.54–0.80), while a gateway aged by 40–90 s
 * of load ran as fast as a fresh one beside it (median ratios 0.93, 0.94, 1.14).
 */
const LOAD_ORDER: readonly Name[] = ['bare', 'rest', 'barePost', 'graphql'];

export type ThroughputFigures = Record<Name, LoadResult[]>;

/** Loads the running gateway at `gatewayUrl` against the two baselines, `rounds` times `seconds` per target. */
export async function benchThroughput(gatewayUrl: string, seconds: number, rounds: number): Promise<ThroughputFigures> {
  const optionsJson = await (await fetch(`${gatewayUrl}/api/sleeve-options`)).text();
  const graphqlJson = await (
    await fetch(`${gatewayUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: GRAPHQL_BODY })
  ).text();
  if (!graphqlJson.includes('"sizes"')) throw new Error(`GraphQL answered: ${graphqlJson}`);
  const bare: Child = await startChild('bench/bare-server.ts', { BARE_BODY: optionsJson, BARE_POST_BODY: graphqlJson });
  const post = (url: string): Target => ({ url, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: GRAPHQL_BODY });
  const targets: Record<Name, Target> = {
    bare: { url: `${bare.url}/api/sleeve-options` },
    barePost: post(`${bare.url}/graphql`),
    rest: { url: `${gatewayUrl}/api/sleeve-options` },
    graphql: post(`${gatewayUrl}/graphql`),
  };
  const results: ThroughputFigures = { bare: [], barePost: [], rest: [], graphql: [] };
  try {
    console.log(`warming up (${NAMES.length} × 3 s)…`);
    for (const name of NAMES) await load(targets[name], { duration: 3 });
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? LOAD_ORDER : [...LOAD_ORDER].reverse();
      for (const name of order) {
        const result = await load(targets[name], { duration: seconds });
        if (result.failures > 0) throw new Error(`${name}: ${result.failures} failed requests`);
        results[name][round - 1] = result;
        console.log(`round ${round} ${name.padEnd(8)} ${result.rps.toFixed(0)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms`);
      }
    }
  } finally {
    await bare.stop();
  }
  return results;
}

/** The median of the rounds' ratios a/b, and their spread. */
function ratioOf(a: LoadResult[], b: LoadResult[]): string {
  const ratios = a.map((result, i) => result.rps / b[i]!.rps);
  return `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

export function printThroughputFigure(results: ThroughputFigures, seconds: number): void {
  const rounds = results.bare.length;
  const widths = [36, 10, 9, 9, 22, 22];
  console.log(`\nmedians of ${rounds} rounds, 64 connections, ${seconds} s each; ratios: median of the rounds' (min–max)`);
  console.log(row(['target', 'req/s', 'p50 ms', 'p99 ms', 'to bare GET', 'to bare POST'], widths));
  const labels: Record<Name, string> = {
    bare: 'bare node:http GET (baseline)',
    barePost: 'bare node:http POST, body parsed',
    rest: 'REST GET /api/sleeve-options',
    graphql: 'GraphQL { sleeveOptions } (POST)',
  };
  for (const name of NAMES) {
    const r = results[name];
    const toPost = name === 'graphql' || name === 'barePost' ? ratioOf(r, results.barePost) : '';
    console.log(row([labels[name], median(r.map((x) => x.rps)).toFixed(0), median(r.map((x) => x.p50)), median(r.map((x) => x.p99)), ratioOf(r, results.bare), toPost], widths));
  }
}

// `tsx bench/throughput.ts` runs this figure alone, against the build started as bench/run.ts starts it.
if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-throughput-'));
  // The limiter still runs on every request; the limits are just out of reach of one load generator.
  const gateway = await startChild(GATEWAY_ENTRY, { DATABASE_URL: `file:${join(dir, 'bench.db')}`, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' });
  try {
    printThroughputFigure(await benchThroughput(gateway.url, seconds, rounds), seconds);
  } finally {
    await gateway.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
