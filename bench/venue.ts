/**
 * The venue figure (docs/edge.md#rate-limits-at-a-venue, issue 15): 2,000 attendees each read the options, create an
 * order, look it up and pay it within a 10-minute event, all behind one address (the venue's NAT), then all behind a
 * trusted proxy that passes each one's own X-Forwarded-For (TRUST_PROXY=loopback). The event is compressed into
 * BENCH_VENUE_SECONDS (default 30): attendees start at uniformly random moments of it, and the limiter's window is
 * shrunk by the same factor (RATE_LIMIT_WINDOW_SECONDS), so every limit meets the same traffic per window as at the
 * real event. Reported: wrong 429s (there should be none), p50/p99 of each step. A third event has a script beside
 * the attendees, behind the same address, trying payTokens on the first order as fast as 32 connections go
 * (docs/edge.md#wrong-tokens): it spends the address's budget of pays that open nothing, and must leave the
 * attendees' lookups and pays alone (before that budget existed, 837 of the 2,000 met a 429 and stopped).
 *
 * Then the limiter's cost: attendees unpaced (64 at a time) for BENCH_SECONDS, the limiter on (address and subject
 * limits counted, the address limits out of reach) against RATE_LIMITS=off, a fresh server per run, alternated over
 * BENCH_ROUNDS rounds; the ratio of the medians of attendees served per second (target ≥ 0.95). SQLITE_SYNCHRONOUS=normal, so the disk's fsync does not hide it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abbaSide, median, row, startChild, GATEWAY_ENTRY } from './lib.ts';

const ATTENDEES = Number(process.env.BENCH_VENUE_ATTENDEES ?? 2000);
const EVENT_SECONDS = 600;
const STEPS = ['options', 'create', 'lookup', 'pay'] as const;
type Step = (typeof STEPS)[number];

export interface VenueRun {
  label: string;
  attendees: number;
  completed: number;
  limited: number;
  /** Answers other than the expected 200/201 and other than 429. */
  failed: number;
  latencies: Record<Step, number[]>;
  seconds: number;
  /** The script trying payTokens beside the attendees, if any: its requests, and how many were answered 429. */
  script?: { sent: number; limited: number };
}

export interface VenueFigures {
  paced: VenueRun[];
  limiterOn: number[];
  limiterOff: number[];
  eventSeconds: number;
  windowSeconds: number;
}

const ORDER = { name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA 1815' };

async function attendee(base: string, i: number, run: string, forwardedFor: string | undefined, into: VenueRun): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) };
  const timed = async (step: Step, path: string, init: RequestInit = {}): Promise<any> => {
    const started = performance.now();
    const response = await fetch(base + path, { ...init, headers });
    const body = await response.json();
    into.latencies[step].push(performance.now() - started);
    if (response.status === 429) into.limited++;
    else if (response.status >= 300) into.failed++;
    return response.status < 300 ? body : null;
  };
  if (!(await timed('options', '/api/sleeve-options'))) return;
  const created = await timed('create', '/api/orders', { method: 'POST', body: JSON.stringify({ ...ORDER, email: `a${i}.${run}@example.com` }) });
  if (!created) return;
  const { orderNumber, payToken } = created;
  if (!(await timed('lookup', `/api/orders/${orderNumber}?t=${payToken}`))) return;
  if (!(await timed('pay', `/api/orders/${orderNumber}/pay`, { method: 'POST', body: JSON.stringify({ t: payToken, method: 'vendor_card' }) }))) return;
  into.completed++;
}

function emptyRun(label: string): VenueRun {
  return { label, attendees: ATTENDEES, completed: 0, limited: 0, failed: 0, latencies: { options: [], create: [], lookup: [], pay: [] }, seconds: 0 };
}

async function withServer<T>(env: Record<string, string>, body: (url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-venue-'));
  const child = await startChild(GATEWAY_ENTRY, { DATABASE_URL: `file:${join(dir, 'venue.db')}`, SQLITE_SYNCHRONOUS: 'normal', ...env });
  try {
    return await body(child.url);
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The event, compressed: each attendee starts at a random moment of `seconds`, then runs its four steps. */
async function paced(label: string, seconds: number, env: Record<string, string>, proxied: boolean, withScript = false): Promise<VenueRun> {
  const run = emptyRun(label);
  await withServer(env, async (url) => {
    const started = performance.now();
    const id = Date.now().toString(36);
    const stop = { now: false };
    const script = withScript ? tryingTokens(url, (run.script = { sent: 0, limited: 0 }), stop) : Promise.resolve();
    await Promise.all(
      Array.from({ length: ATTENDEES }, (_, i) =>
        new Promise((resolve) => setTimeout(resolve, Math.random() * seconds * 1000)).then(() =>
          attendee(url, i, id, proxied ? `198.51.${(i >> 8) & 255}.${i & 255}` : undefined, run),
        ),
      ),
    );
    stop.now = true;
    await script;
    run.seconds = (performance.now() - started) / 1000;
  });
  return run;
}

/** A script paying order 1001 with a new wrong payToken each time, 32 at once, until told to stop. */
async function tryingTokens(url: string, into: { sent: number; limited: number }, stop: { now: boolean }): Promise<void> {
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (!stop.now) {
        const body = JSON.stringify({ t: Math.random().toString(36).slice(2), method: 'vendor_card' });
        const response = await fetch(`${url}/api/orders/1001/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        into.sent++;
        if (response.status === 429) into.limited++;
      }
    }),
  );
}

/** `concurrency` attendees at a time against `url` until `until`; throws on any 429 or failure (none is expected). */
async function unpacedFlows(url: string, run: VenueRun, until: number, concurrency = 64): Promise<void> {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await attendee(url, next++, id, undefined, run);
    }),
  );
  if (run.limited > 0 || run.failed > 0) throw new Error(`unpaced run: ${run.limited} × 429, ${run.failed} other failures`);
}

export async function benchVenue(
  seconds = Number(process.env.BENCH_VENUE_SECONDS ?? 30),
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
  unpacedSeconds = Number(process.env.BENCH_SECONDS ?? 10),
): Promise<VenueFigures> {
  // The same traffic per window as the real event: shrink the window by the compression factor.
  const windowSeconds = Math.max(1, Math.round((60 * seconds) / EVENT_SECONDS));
  const eventSeconds = (EVENT_SECONDS * windowSeconds) / 60;
  const compressed = { RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds) };
  console.log(`venue: ${ATTENDEES} attendees, a 10-minute event in ${eventSeconds} s (window ${windowSeconds} s)…`);
  const paced1 = await paced('behind one address (NAT)', eventSeconds, compressed, false);
  const paced2 = await paced('behind a trusted proxy (X-Forwarded-For)', eventSeconds, { ...compressed, TRUST_PROXY: 'loopback' }, true);
  const paced3 = await paced('behind one address, a script trying tokens', eventSeconds, compressed, false, true);
  const { limiterOn, limiterOff } = await limiterCost(rounds, unpacedSeconds);
  return { paced: [paced1, paced2, paced3], limiterOn, limiterOff, eventSeconds, windowSeconds };
}

/**
 * The limiter's cost: unpaced attendees with the limiter on (address and subject limits counted, the address limits
 * out of reach, so it does all its work and refuses nothing) and off. Both servers run side by side and the load
 * alternates between them in slices of SLICE_MS (after a warm-up of each), each slice drained before the next, so a
 * drift of the shared cores — a third over a day, often 10% within a minute — falls on both alike. A round is
 * `seconds` of load on each, with fresh servers; each round gives one ratio of attendees served per second.
 */
export async function limiterCost(rounds: number, seconds: number): Promise<{ limiterOn: number[]; limiterOff: number[] }> {
  const limiterOn: number[] = [];
  const limiterOff: number[] = [];
  const on = { RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' };
  const off = { RATE_LIMITS: 'off' };
  for (let round = 1; round <= rounds; round++) {
    const [rateOn, rateOff] = await withServer(on, (onUrl) => withServer(off, (offUrl) => alternate([onUrl, offUrl], seconds)));
    limiterOn.push(rateOn);
    limiterOff.push(rateOff);
    console.log(`round ${round} venue unpaced: limiter on ${rateOn.toFixed(0)}, off ${rateOff.toFixed(0)} attendees/s (${(rateOn / rateOff).toFixed(3)})`);
  }
  return { limiterOn, limiterOff };
}

const SLICE_MS = 1_000;

/** Alternates the load between the two servers in slices, `seconds` on each in all; attendees served per second. */
async function alternate(urls: [string, string], seconds: number): Promise<[number, number]> {
  for (const url of urls) await unpacedFlows(url, emptyRun('warm-up'), performance.now() + 2_000);
  const served = [0, 0];
  const elapsed = [0, 0];
  for (let slice = 0; slice < 2 * Math.ceil((seconds * 1000) / SLICE_MS); slice++) {
    const which = abbaSide(slice);
    const run = emptyRun('slice');
    const started = performance.now();
    await unpacedFlows(urls[which]!, run, started + SLICE_MS);
    elapsed[which]! += performance.now() - started;
    served[which]! += run.completed;
  }
  return [(served[0]! * 1000) / elapsed[0]!, (served[1]! * 1000) / elapsed[1]!];
}

/** The limiter's cost as one figure: the median of each round's on/off ratio (a round's two runs are adjacent in time). */
export function costRatio(limiterOn: number[], limiterOff: number[]): number {
  return median(limiterOn.map((on, i) => on / limiterOff[i]!));
}

function percentile(values: number[], p: number): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1);
}

export function printVenueFigure(figures: VenueFigures): void {
  console.log(`venue: ${ATTENDEES} attendees, each options → create → lookup → pay, a 10-minute event compressed into ${figures.eventSeconds} s (RATE_LIMIT_WINDOW_SECONDS=${figures.windowSeconds}, default limits)`);
  const widths = [44, 10, 8, 8, 16, 16, 16, 16];
  console.log(row(['run', 'completed', '429s', 'other', 'options p50/p99', 'create p50/p99', 'lookup p50/p99', 'pay p50/p99'], widths));
  for (const run of figures.paced) {
    const steps = STEPS.map((step) => `${percentile(run.latencies[step], 50)}/${percentile(run.latencies[step], 99)} ms`);
    console.log(row([run.label, `${run.completed}/${run.attendees}`, run.limited, run.failed, ...steps], widths));
  }
  for (const { script } of figures.paced) {
    if (script) console.log(`the script beside them: ${script.sent} wrong-token pays, ${script.limited} answered 429 (its budget spent; the attendees' 429s are above)`);
  }
  const on = median(figures.limiterOn);
  const off = median(figures.limiterOff);
  const rounds = figures.limiterOn.map((value, i) => (value / figures.limiterOff[i]!).toFixed(2)).join(', ');
  console.log(
    `limiter's cost, unpaced (64 attendees at a time, ${figures.limiterOn.length} rounds): on ${on.toFixed(0)} attendees/s, off ${off.toFixed(0)} attendees/s (medians); ratio ${costRatio(figures.limiterOn, figures.limiterOff).toFixed(3)}, the median of the rounds' ratios ${rounds} (target ≥ 0.95)`,
  );
}
