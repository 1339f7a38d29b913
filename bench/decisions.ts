/**
 * The decisions figure (issue 6): POST /v2/accounts/profile-access/{id} with valid document 3 headers against the
 * gateway on a temporary SQLite file, every request a new event (so each one runs the rules engine, reads the
 * account's history and writes the decision), spread over 500 accounts and 250 IPs with advancing eventTimes.
 * The baseline is bare node:http answering a decision body, loaded the same way in the same run.
 *
 * Alone: `npx tsx bench/decisions.ts` (BENCH_SECONDS, default 10). From bench/run.ts: `await benchDecisions(seconds)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadInProcess, startChild, type LoadResult, GATEWAY_ENTRY } from './lib.ts';

const SITE_ID = 'site_bench';
const API_KEY = 'bench-api-key-0123456789abcdef';
const CONNECTIONS = 32;

export interface DecisionsFigure {
  decisions: LoadResult;
  bare: LoadResult;
  ratio: number;
}

export async function benchDecisions(seconds = 10): Promise<DecisionsFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-bench-decisions-'));
  const gateway = await startChild(GATEWAY_ENTRY, {
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    VENDOR_SITE_ID: SITE_ID,
    VENDOR_API_KEY: API_KEY,
    RATE_LIMIT_READ: '10000000',
    RATE_LIMIT_WRITE: '10000000',
  });
  const bare = await startChild('bench/bare-server.ts', {
    BARE_BODY: JSON.stringify({ status: 'success', vendorDecision: 'APPROVE', reasonCodes: [], recommendations: [], correlationId: 'corr_00000000-0000-0000-0000-000000000000' }),
  });
  try {
    const probe = await fetch(`${gateway.url}/v2/accounts/profile-access/probe`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body(0)) });
    if (probe.status !== 200) throw new Error(`profile access answered ${probe.status}: ${await probe.text()}`);
    await loadDecisions(gateway.url, 3, 'warm'); // warm-up
    await loadDecisions(bare.url, 3, 'warm');
    const decisions = await loadDecisions(gateway.url, seconds, 'run');
    const bareResult = await loadDecisions(bare.url, seconds, 'bare');
    return { decisions, bare: bareResult, ratio: decisions.rps / bareResult.rps };
  } finally {
    await Promise.all([gateway.stop(), bare.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEADERS = {
  authorization: `Basic ${Buffer.from(`${SITE_ID}:${API_KEY}`).toString('base64')}`,
  'x-vendor-siteid': SITE_ID,
  'api-version': '10.3',
  'content-type': 'application/json',
};

const START = Date.UTC(2026, 10, 22, 15, 0, 0);

/** A profile access request of document 3 §2 with the parts the rules read. */
function body(seq: number) {
  const verified = { sent: true, verified: seq % 7 !== 0 };
  return {
    accountId: `acct-${seq % 500}`,
    eventTime: START + seq * 10,
    accountOwner: { email: `user${seq % 500}@example.com`, firstName: 'Bench', lastName: 'Mark' },
    connectionInformation: { customerIP: `10.0.${seq % 250}.${(seq * 7) % 250}`, userAgent: 'bench' },
    newEmail: { email: `user${seq % 500}@example.com`, emailVerification: verified },
    newPhone: { phone: '+15550100', smsVerified: verified },
    ...(seq % 5 === 0 ? { newAddress: { address1: '1 Main St', city: 'Austin', country: 'US' }, newPaymentMethods: { creditCard: { bin: '424242', lastFourDigits: '4242' } } } : {}),
  };
}

async function loadDecisions(base: string, seconds: number, run: string): Promise<LoadResult> {
  let seq = 0;
  const result = await loadInProcess({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: HEADERS,
        setupRequest: (request: Record<string, unknown>) => {
          const n = ++seq;
          return { ...request, path: `/v2/accounts/profile-access/${run}-${n}`, body: JSON.stringify(body(n)) };
        },
      },
    ],
  });
  if (result.failures > 0) throw new Error(`${base}: ${result.failures} failed requests`);
  return result;
}

export function printDecisionsFigure({ decisions, bare, ratio }: DecisionsFigure, seconds: number): void {
  console.log(`profile access decisions on SQLite, ${CONNECTIONS} connections, ${seconds} s:`);
  console.log(`  gateway ${decisions.rps.toFixed(0)} decisions/s  p50 ${decisions.p50} ms  p99 ${decisions.p99} ms`);
  console.log(`  bare    ${bare.rps.toFixed(0)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`);
  console.log(`  ratio to bare ${ratio.toFixed(3)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  benchDecisions(seconds)
    .then((figure) => printDecisionsFigure(figure, seconds))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
