/**
 * When a live stream cannot read what an event asks it to show (PostgreSQL restarting, a failover, a dropped link),
 * the stream neither ends nor drops the change: it reports the failed read here (the orders' streams, and the staff's
 * delivery streams through src/notifications/stream-service.ts). This then asks the database
 * every second whether it answers again; once it does, every stream gets the call it gets after a break in Redis
 * (`onResume`, with how long reads were failing), and reads again what it shows (docs/graphql.md#subscriptions).
 * One probe per process however many streams failed; a stream whose read fails again reports again.
 */
import type { Clock, Timer } from '../kernel/clock.ts';
import type { Logger } from '../kernel/logger.ts';
import { DomainError } from '../kernel/errors.ts';

/** How often the database is asked again while reads fail. */
export const RECOVERY_PROBE_MS = 1_000;

type ResumeHandler = (awayMs: number) => void;

export interface ReadRecovery {
  /** `handler` runs after a break in Redis and after the database answers again; returns how to stop. */
  onResume(handler: ResumeHandler): () => void;
  /**
   * A stream's read failed: after an outage (`unavailable`), its state is reread once the database answers (true);
   * any other failure is logged, and nothing is reread (false).
   */
  readFailed(what: string, error: unknown): boolean;
  /** Runs `work` (a read and what it shows); a failure is reported as by `readFailed`. */
  guarded(what: string, work: () => Promise<unknown>): Promise<void>;
}

export function createReadRecovery(deps: {
  /** The event bus's resume after a break in Redis. */
  onBusResume(handler: ResumeHandler): () => void;
  /** Resolves when the database answers. */
  probe(): Promise<void>;
  clock: Clock;
  logger: Logger;
}): ReadRecovery {
  const { onBusResume, probe, clock, logger } = deps;
  const handlers = new Set<ResumeHandler>();
  let failingSince: number | null = null;
  // Unreferenced (the system clock's timers are): a probe pending never keeps a stopping process alive.
  let timer: Timer | null = null;

  const check = async () => {
    timer = null;
    if (failingSince === null) return;
    try {
      await probe();
    } catch {
      timer = clock.setTimer(RECOVERY_PROBE_MS, check);
      return;
    }
    const awayMs = clock.now() - failingSince;
    failingSince = null;
    logger.info('live streams read again after the database was unreadable', { awayMs });
    for (const handler of [...handlers]) handler(awayMs);
  };

  function readFailed(what: string, error: unknown): boolean {
    // Only an outage waits for the database: a read that fails for another reason would fail again at every resume,
    // rereading every stream each second. It is logged, and the stream goes on with its next event.
    if (!(error instanceof DomainError && error.code === 'unavailable')) {
      logger.error(`${what}: a read failed`, { error });
      return false;
    }
    if (failingSince === null) {
      failingSince = clock.now();
      logger.warn(`${what}: a read failed; read again once the database answers`, { error });
    }
    timer ??= clock.setTimer(RECOVERY_PROBE_MS, check);
    return true;
  }

  return {
    readFailed,
    guarded: (what, work) => work().then(
      () => undefined,
      (error: unknown) => void readFailed(what, error),
    ),
    onResume(handler) {
      // Kept as given, as the bus keeps its own.
      handlers.add(handler);
      const unbus = onBusResume(handler);
      return () => {
        handlers.delete(handler);
        unbus();
      };
    },
  };
}
