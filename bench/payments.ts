/**
 * The payments figure (issue 5): POST /api/payments with the bootstrap site's basic auth against the gateway on a
 * temporary SQLite file, every request a fresh Idempotency-Key and an inline card (so each one claims its key,
 * vaults the card — AES-256-GCM and a keyed fingerprint — reserves, calls the sandbox processor, and records the
 * payment and the stored response). The baseline is bare node:http answering a 201-sized body, loaded the same way
 * in the same run. The gateway runs with the durable default SQLITE_SYNCHRONOUS=full; a second one on a file of its
 * own with SQLITE_SYNCHRONOUS=normal is loaded the same way right after it, and their ratio is the cost of FULL
 * (docs/running.md#durability-of-the-embedded-database).
 *
 * Alone: `npx tsx bench/payments.ts` (BENCH_SECONDS, default 10). From bench/run.ts: `await benchPayments(seconds)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadInProcess, startChild, type LoadResult, GATEWAY_ENTRY } from './lib.ts';

const SITE_ID = 'site_bench';
const API_KEY = 'bench-api-key-0123456789abcdef';
const CONNECTIONS = 32;

export interface PaymentsFigure {
  /** With SQLITE_SYNCHRONOUS=full (the default). */
  payments: LoadResult;
  /** The same load with SQLITE_SYNCHRONOUS=normal. */
  normal: LoadResult;
  bare: LoadResult;
  ratio: number;
  /** payments.rps / normal.rps: what the durable default costs. */
  synchronousRatio: number;
}

const HEADERS = {
  authorization: `Basic ${Buffer.from(`${SITE_ID}:${API_KEY}`).toString('base64')}`,
  'content-type': 'application/json',
};

const BODY = JSON.stringify({
  orderId: 'bench-order',
  amount: 1999,
  currency: 'USD',
  channel: 'web',
  customer: { email: 'bench@example.com', firstName: 'Bench', lastName: 'Mark' },
  paymentMethod: { type: 'card', card: { number: '4242424242424242', expirationMonth: 12, expirationYear: 2030, holderName: 'Bench Mark', cvc: '123' } },
});

export async function benchPayments(seconds = 10): Promise<PaymentsFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-payments-'));
  const start = (synchronous: 'full' | 'normal') =>
    startChild(GATEWAY_ENTRY, {
      DATABASE_URL: `file:${join(dir, `bench-${synchronous}.db`)}`,
      SQLITE_SYNCHRONOUS: synchronous,
      VENDOR_SITE_ID: SITE_ID,
      VENDOR_API_KEY: API_KEY,
      RATE_LIMIT_READ: '10000000',
      RATE_LIMIT_WRITE: '10000000',
    });
  const gateway = await start('full');
  const normalGateway = await start('normal');
  const bare = await startChild('bench/bare-server.ts', {
    BARE_BODY: JSON.stringify({ id: 'pay_00000000-0000-0000-0000-000000000000', orderId: 'bench-order', amount: 1999, currency: 'USD', status: 'succeeded', decision: 'APPROVE', createdAt: new Date(0).toISOString() }),
  });
  try {
    for (const base of [gateway.url, normalGateway.url]) {
      const probe = await fetch(`${base}/api/payments`, { method: 'POST', headers: { ...HEADERS, 'idempotency-key': 'probe' }, body: BODY });
      if (probe.status !== 201) throw new Error(`/api/payments answered ${probe.status}: ${await probe.text()}`);
      await loadPayments(base, 3, 'warm');
    }
    await loadPayments(bare.url, 3, 'warm');
    const payments = await loadPayments(gateway.url, seconds, 'run');
    const normal = await loadPayments(normalGateway.url, seconds, 'run');
    const bareResult = await loadPayments(bare.url, seconds, 'bare');
    return { payments, normal, bare: bareResult, ratio: payments.rps / bareResult.rps, synchronousRatio: payments.rps / normal.rps };
  } finally {
    await Promise.all([gateway.stop(), normalGateway.stop(), bare.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadPayments(base: string, seconds: number, run: string): Promise<LoadResult> {
  let seq = 0;
  const result = await loadInProcess({
    url: `${base}/api/payments`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request: Record<string, unknown>) => ({ ...request, headers: { ...HEADERS, 'idempotency-key': `${run}-${++seq}` }, body: BODY }),
      },
    ],
  });
  if (result.failures > 0) throw new Error(`${base}: ${result.failures} failed requests`);
  return result;
}

export function printPaymentsFigure({ payments, normal, bare, ratio, synchronousRatio }: PaymentsFigure, seconds: number): void {
  console.log(`POST /api/payments on SQLite, ${CONNECTIONS} connections, ${seconds} s, a fresh Idempotency-Key each:`);
  console.log(`  gateway ${payments.rps.toFixed(0)} payments/s  p50 ${payments.p50} ms  p99 ${payments.p99} ms  (SQLITE_SYNCHRONOUS=full, the default)`);
  console.log(`  normal  ${normal.rps.toFixed(0)} payments/s  p50 ${normal.p50} ms  p99 ${normal.p99} ms  (SQLITE_SYNCHRONOUS=normal)`);
  console.log(`  bare    ${bare.rps.toFixed(0)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
  console.log(`  ratio to bare ${ratio.toFixed(3)}; full / normal ${synchronousRatio.toFixed(2)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  benchPayments(seconds)
    .then((figure) => printPaymentsFigure(figure, seconds))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
