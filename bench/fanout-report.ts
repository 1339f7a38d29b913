/**
 * The fan-out bench's results (bench/fanout.ts): one step's figures, its printed line, and the CPU-per-subscriber
 * comparison at the same N.
 */

/**
 * bare: bench/fanout-bare-server.ts; graphql-ws: bench/fanout-graphql-ws-server.ts (the protocol library, no GraphQL);
 * gateway: one instance on SQLite; gateway2: two on PostgreSQL and Redis.
 */
export type Target = 'bare' | 'graphql-ws' | 'gateway' | 'gateway2';

export interface StepResult {
  target: Target;
  n: number;
  ok: boolean;
  p50: number | null;
  p99: number | null;
  max: number | null;
  missing: number | null;
  errors: number;
  connectMs: number | null;
  serverCpu: number | null;
  clientLoop: number | null;
  /** The client's own worst event-loop delay in the window (ms): its GC pauses land in the lags too. */
  clientDelayMax: number | null;
  /** Bare server only: p99 of sentAt − due, the server's own part of the lag. */
  serverP99: number | null;
  note: string;
  seconds: number;
}


export const fmt = (v: number | null, digits = 0) => (v === null ? '-' : v.toFixed(digits));

export function print(r: StepResult): void {
  console.log(
    `${r.target.padEnd(8)} N=${String(r.n).padEnd(6)} ${r.ok ? 'pass' : 'MISS'}  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms` +
      `  max ${fmt(r.max)} ms  missing ${fmt(r.missing)}  connect ${fmt(r.connectMs === null ? null : r.connectMs / 1000, 1)} s` +
      `  server cpu ${fmt(r.serverCpu, 2)}  client loop ${fmt(r.clientLoop, 2)} (delay max ${fmt(r.clientDelayMax)} ms)` +
      (r.serverP99 !== null ? `  server-side p99 ${fmt(r.serverP99)} ms` : '') +
      `  (${r.seconds.toFixed(0)} s)` +
      (r.note ? `  ${r.note}` : ''),
  );
}


/**
 * Server CPU per subscriber, `target` over `baseline` (bare unless said), at the largest N that both passed (the same
 * N: no per-N guesswork).
 */
export function cpuPerSubscriber(steps: StepResult[], target: Target = 'gateway', baseline: Target = 'bare'): { n: number; ratio: number } | null {
  const passed = (of: Target) => new Map(steps.filter((s) => s.target === of && s.ok && s.serverCpu).map((s) => [s.n, s.serverCpu!]));
  const base = passed(baseline);
  const measured = passed(target);
  const shared = [...measured.keys()].filter((n) => base.has(n)).sort((a, b) => b - a)[0];
  return shared === undefined ? null : { n: shared, ratio: measured.get(shared)! / base.get(shared)! };
}

