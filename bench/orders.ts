/**
 * The orders figure: create an order and pay it with the demo card, as fast as 16 connections per instance can,
 * for `seconds`. Given several instances (one database), each gets its own load generator at the same time and the
 * figure is their sum.
 */
import { loadInProcess } from './lib.ts';

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
