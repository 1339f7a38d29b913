/**
 * The orders figure: create an order and pay it with the demo card, as fast as 16 connections per instance can,
 * for `seconds`. Given several instances (one database), each gets its own load generator at the same time and the
 * figure is their sum.
 *
 * The durability figure (issue 14, docs/running.md#durability-of-the-embedded-database): the same load on two
 * gateways, each on a SQLite file of its own, one with SQLITE_SYNCHRONOUS=full (the default) and one with normal,
 * loaded in turn over `rounds` alternating rounds; the ratio of the medians says what the durable default costs.
 * Alone: `npx tsx bench/orders.ts` (BENCH_SECONDS, default 10; BENCH_ROUNDS, default 3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadInProcess, median, startChild, GATEWAY_ENTRY } from './lib.ts';

export interface SynchronousFigure {
  /** Per round, orders created and paid per second. */
  full: number[];
  normal: number[];
  /** median(full) / median(normal). */
  ratio: number;
}

export async function ordersBySynchronous(seconds: number, rounds: number): Promise<SynchronousFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-sync-'));
  const start = (mode: 'full' | 'normal') =>
    startChild(GATEWAY_ENTRY, {
      DATABASE_URL: `file:${join(dir, `${mode}.db`)}`,
      SQLITE_SYNCHRONOUS: mode,
      RATE_LIMIT_READ: '10000000',
      RATE_LIMIT_WRITE: '10000000',
    });
  const gateways = { full: await start('full'), normal: await start('normal') };
  try {
    const figure: SynchronousFigure = { full: [], normal: [], ratio: 0 };
    for (const mode of ['full', 'normal'] as const) await ordersPerSecond([gateways[mode].url], 3); // warm-up
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so a drift of the shared cores does not favour one mode.
      const order = round % 2 === 0 ? (['full', 'normal'] as const) : (['normal', 'full'] as const);
      for (const mode of order) figure[mode].push(await ordersPerSecond([gateways[mode].url], seconds));
    }
    figure.ratio = median(figure.full) / median(figure.normal);
    return figure;
  } finally {
    await Promise.all([gateways.full.stop(), gateways.normal.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printSynchronousFigure({ full, normal, ratio }: SynchronousFigure, seconds: number): void {
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`orders created and paid on SQLite by SQLITE_SYNCHRONOUS, ${full.length} alternating rounds of ${seconds} s:`);
  console.log(`  full (default) ${median(full).toFixed(0)} per second (rounds ${list(full)})`);
  console.log(`  normal         ${median(normal).toFixed(0)} per second (rounds ${list(normal)})`);
  console.log(`  ratio full / normal ${ratio.toFixed(2)}`);
}

export async function ordersPerSecond(bases: string[], seconds: number): Promise<number> {
  const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const results = await Promise.all(bases.map((base, instance) => loadOrders(base, `${run}-${instance}`, seconds)));
  return results.reduce((sum, rps) => sum + rps, 0);
}

async function loadOrders(base: string, run: string, seconds: number): Promise<number> {
  let seq = 0;
  const result = await loadInProcess({
    url: base,
    connections: 16,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/orders',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          body: JSON.stringify({
            email: `bench-${run}-${++seq}@example.com`,
            name: 'Bench Mark',
            size: '13-inch',
            font: 'Block',
            thread: 'Gold',
            stitchText: 'FAST',
          }),
        }),
        onResponse: (_status: number, body: string, context: Record<string, unknown>) => {
          context.order = JSON.parse(body);
        },
      },
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request: Record<string, unknown>, context: { order: { orderNumber: string; payToken: string } }) => ({
          ...request,
          path: `/api/orders/${context.order.orderNumber}/pay`,
          body: JSON.stringify({ t: context.order.payToken, method: 'vendor_card' }),
        }),
      },
    ],
  });
  if (result.failures > 0) throw new Error(`orders on ${base}: ${result.failures} failed requests`);
  return result.rps / 2;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  ordersBySynchronous(seconds, Number(process.env.BENCH_ROUNDS ?? 3))
    .then((figure) => printSynchronousFigure(figure, seconds))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
