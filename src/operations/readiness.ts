/**
 * Readiness (docs/operations.md#readiness): whether this instance should get new requests. It is ready when every
 * dependency answers — the database with its migrations applied, Redis when configured — and it is not draining:
 * from the moment SIGTERM arrives `/ready` says 503, so a load balancer stops sending before connections close.
 * Liveness (`/health`) checks nothing: a process that answers is alive, and restarting it would not cure a database
 * that is down.
 */
import { within } from '../kernel/bounded-wait.ts';

/** One dependency: resolves when it answers, throws an Error whose message says briefly why not (never a secret). */
export interface DependencyCheck {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** Each dependency's state, `ok` or why not, and `shutdown`: `ok` or `draining`. */
  checks: Record<string, string>;
}

/** A check that has not answered by then fails: `/ready` must answer a prober quickly even when a dependency hangs. */
const CHECK_TIMEOUT_MS = 2_000;

export class Readiness {
  private draining = false;

  constructor(private readonly dependencies: readonly DependencyCheck[]) {}

  /** From now on the instance is not ready, whatever its dependencies say (SIGTERM). */
  drain(): void {
    this.draining = true;
  }

  async report(): Promise<ReadinessReport> {
    const checks: Record<string, string> = {};
    await Promise.all(
      this.dependencies.map(async ({ name, check }) => {
        checks[name] = await withTimeout(check()).then(
          () => 'ok',
          (error: unknown) => (error instanceof Error ? error.message : 'unavailable').slice(0, 200),
        );
      }),
    );
    checks.shutdown = this.draining ? 'draining' : 'ok';
    return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
  }
}

function withTimeout(pending: Promise<void>): Promise<void> {
  return within(pending, CHECK_TIMEOUT_MS, () => {
    throw new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`);
  });
}
