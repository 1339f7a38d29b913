/**
 * The fan-out bench's results (bench/fanout.ts): one step's figures (from the client's report, or a failure), its
 * printed line, and the CPU-per-subscriber comparison at the same N.
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

/**
 * A step's result from the client's report (its last stdout line, a JSON object; bench/fanout-client.ts), the
 * servers' CPU over the window, and the step's wall time: passes only when the client says so.
 */
export function stepFromReport(target: Target, n: number, line: string, serverCpu: number | null, seconds: number, p99Limit: number): StepResult {
  const r = JSON.parse(line) as Record<string, unknown>;
  const p99 = (r.p99 as number | null) ?? null;
  const notes: string[] = [];
  if ((r.subscribed as number) < n) notes.push(`only ${String(r.subscribed)} subscribed`);
  if ((r.errors as number) > 0) notes.push(`${String(r.errors)} errors (${String(r.firstError)})`);
  if ((r.missing as number) > 0) notes.push(`${String(r.missing)} ticks missing`);
  if ((r.extra as number) > 0) notes.push(`${String(r.extra)} extra ticks`);
  if ((r.finals as number) > 0) notes.push(`${String(r.finals)} final events`);
  if (p99 !== null && p99 >= p99Limit) notes.push(`p99 ≥ ${p99Limit} ms`);
  return {
    target,
    n,
    ok: r.ok === true,
    p50: (r.p50 as number | null) ?? null,
    p99,
    max: (r.max as number | null) ?? null,
    missing: (r.missing as number | undefined) ?? null,
    errors: (r.errors as number) ?? 0,
    connectMs: (r.connectMs as number) ?? null,
    serverCpu,
    clientLoop: (r.clientLoopUtilization as number | undefined) ?? null,
    clientDelayMax: (r.clientLoopDelayMax as number | undefined) ?? null,
    serverP99: (r.serverP99 as number | null | undefined) ?? null,
    note: notes.join('; '),
    seconds,
  };
}

/** A step that failed before the client reported (a timeout, a process that exited): a miss with `note` and no figures. */
export function failedStep(target: Target, n: number, note: string, seconds: number): StepResult {
  const none = { p50: null, p99: null, max: null, missing: null, connectMs: null, serverCpu: null, clientLoop: null, clientDelayMax: null, serverP99: null };
  return { target, n, ok: false, ...none, errors: 1, note, seconds };
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

