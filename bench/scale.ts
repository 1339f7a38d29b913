/**
 * The scale-out figure (issue 4): orders created and paid per second on PostgreSQL with one instance, then with
 * two instances on the same database and Redis, and the ratio. Both runs use a fresh schema of their own.
 * Runs alone (`npx tsx bench/scale.ts`) or from `npm run bench`.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379), BENCH_SECONDS (default 10). On a two-core machine the second instance shares the cores
 * with the first, PostgreSQL and the load generators: the ratio says what a second instance costs or brings here,
 * not what it would on separate machines.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startChild, type Child, GATEWAY_ENTRY } from './lib.ts';
import { ordersPerSecond } from './orders.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ScaleFigures {
  one: number;
  two: number;
  ratio: number;
}

/** null when PostgreSQL does not answer (the figure is then skipped, and the caller says so). */
export async function benchScale(seconds = Number(process.env.BENCH_SECONDS ?? 10)): Promise<ScaleFigures | null> {
  if (!(await reachable(DATABASE_URL))) return null;
  const one = await withInstances(1, (urls) => ordersPerSecond(urls, seconds));
  const two = await withInstances(2, (urls) => ordersPerSecond(urls, seconds));
  return { one, two, ratio: two / one };
}

async function withInstances<T>(count: number, run: (urls: string[]) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.searchParams.set('schema', schema);
  const env = {
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_PREFIX: `${schema}:`,
    RATE_LIMIT_READ: '10000000',
    RATE_LIMIT_WRITE: '10000000',
  };
  const children: Child[] = [];
  try {
    // One after the other: the first applies the migrations, the second finds them applied.
    for (let i = 0; i < count; i++) children.push(await startChild(GATEWAY_ENTRY, env));
    return await run(children.map((c) => c.url));
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await dropSchema(schema);
  }
}

async function reachable(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

export function printScaleFigures(figures: ScaleFigures | null): void {
  if (!figures) {
    console.log(`orders on PostgreSQL: skipped, PostgreSQL does not answer at ${DATABASE_URL} (set BENCH_DATABASE_URL)`);
    return;
  }
  console.log(`orders created and paid on PostgreSQL: one instance ${figures.one.toFixed(0)}/s, two instances ${figures.two.toFixed(0)}/s, ratio ${figures.ratio.toFixed(2)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printScaleFigures(await benchScale());
}
