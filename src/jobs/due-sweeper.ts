/**
 * The one shape of every due-time job (DESIGN: "a row in the database with a due time, picked up by a scheduler"):
 * a sweep does what is due and says when the next row falls due; one timer is armed for the earliest of that, a
 * time this instance learns of sooner (`arm`), and `pollMs` ahead (rows other instances queued). Sweeps run one
 * after another, never overlapping; a failed sweep is logged and tried again a second later. The rows are claimed
 * by conditional updates in the sweep itself, so a restart or a second instance never does one twice.
 */
import type { Clock, Timer } from '../kernel/clock.ts';
import type { Logger } from '../kernel/logger.ts';

export interface DueSweeperOptions {
  clock: Clock;
  logger: Logger;
  /** For the log line of a failed sweep ("hold expiry", "3DS enrollment", …). */
  name: string;
  pollMs: number;
  /** Does what is due now; returns the next due time it knows of, or null. */
  sweepOnce(): Promise<number | null>;
}

export interface DueSweeper {
  /** Sweep no later than `due` (a new row this instance queued); a later time than the one armed changes nothing. */
  arm(due: number): void;
  /** Sweep now (after any sweep in progress); resolves when it is done. */
  sweep(): Promise<void>;
  /** No more sweeps; waits for the one in progress. */
  dispose(): Promise<void>;
}

const RETRY_MS = 1_000;

export interface DueTimer {
  /** Fire no later than `due`; a time later than the one armed changes nothing. */
  arm(due: number): void;
  /** Disarmed for good. */
  stop(): void;
}

/** One timer armed for the earliest due time it is told of; it fires `onDue` once, then waits to be armed again. */
export function createDueTimer(clock: Clock, onDue: () => void | Promise<unknown>): DueTimer {
  let timer: Timer | null = null;
  let armedFor = Infinity;
  let stopped = false;
  return {
    arm(due) {
      if (stopped || due >= armedFor) return;
      timer?.cancel();
      armedFor = due;
      timer = clock.setTimer(Math.max(0, due - clock.now()), () => {
        armedFor = Infinity;
        timer = null;
        return onDue();
      });
    },
    stop() {
      stopped = true;
      timer?.cancel();
    },
  };
}

export function createDueSweeper({ clock, logger, name, pollMs, sweepOnce }: DueSweeperOptions): DueSweeper {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = createDueTimer(clock, () => sweep());
  const arm = timer.arm;

  function sweep(): Promise<void> {
    running = running.then(async () => {
      if (stopped) return;
      try {
        const next = await sweepOnce();
        arm(Math.min(next ?? Infinity, clock.now() + pollMs));
      } catch (error) {
        logger.error(`${name} sweep failed; retrying`, { error });
        arm(clock.now() + RETRY_MS);
      }
    });
    return running;
  }

  return {
    arm,
    sweep,
    async dispose() {
      stopped = true;
      timer.stop();
      await running;
    },
  };
}

export interface DueJobOptions extends DueSweeperOptions {
  /** Arms the sweeper when this instance learns of a sooner due time; returns how to stop listening. */
  watch?(arm: (due: number) => void): () => unknown;
}

/**
 * Starts a due-time job: its sweeper, the watch that arms it, and a first sweep for whatever fell due while the
 * process was down. Disposing stops the watch, then the sweeper.
 */
export async function startDueJob({ watch, ...options }: DueJobOptions): Promise<{ dispose(): Promise<void> }> {
  const sweeper = createDueSweeper(options);
  const unwatch = watch?.(sweeper.arm);
  await sweeper.sweep();
  return {
    async dispose() {
      await unwatch?.();
      await sweeper.dispose();
    },
  };
}
