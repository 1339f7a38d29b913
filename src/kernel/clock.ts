/**
 * The clock port. Services and schedulers read time and arm timers only through it, so tests move a
 * manual clock instead of sleeping (DESIGN.md).
 */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Runs `fn` once, `delayMs` from now on this clock. A promise it returns is the work the timer started: the
   * system clock ignores it; a manual clock waits for it, so a test that moves time sees that work done.
   */
  setTimer(delayMs: number, fn: () => void | Promise<unknown>): Timer;
}

// setTimeout takes at most a signed 32-bit delay; longer waits are re-armed in steps.
const MAX_DELAY = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(delayMs, fn) {
    let handle: NodeJS.Timeout;
    const due = Date.now() + delayMs;
    const arm = () => {
      const left = due - Date.now();
      handle = setTimeout(left > MAX_DELAY ? arm : () => void fn(), Math.min(Math.max(0, left), MAX_DELAY));
      handle.unref?.();
    };
    arm();
    return { cancel: () => clearTimeout(handle) };
  },
};

export interface ManualClock extends Clock {
  /** Moves time forward, firing every timer that falls due on the way, in order. */
  advance(ms: number): Promise<void>;
  set(epochMs: number): Promise<void>;
  /**
   * Moves time forward at once, as a process wakes that was suspended meanwhile: every overdue timer fires once,
   * late, in order, and a timer re-armed by one is due after the new time. A day of a job's minute poll is one poll,
   * not 1,440 (each a database round trip).
   */
  jump(ms: number): Promise<void>;
}

/** A clock that moves only when told to. Timers fire during advance(), then pending work gets a turn. */
export function createManualClock(start = Date.UTC(2026, 10, 22, 15, 0, 0)): ManualClock {
  let current = start;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void | Promise<unknown> }>();
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Fires, in order, every timer due by `target`; `suspended`: time is already there, so each fires once, late. */
  async function moveTo(target: number, suspended: boolean): Promise<void> {
    if (suspended) current = Math.max(current, target);
    for (;;) {
      let next: [number, { due: number; fn: () => void | Promise<unknown> }] | undefined;
      for (const entry of timers) {
        if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
      }
      if (!next) break;
      timers.delete(next[0]);
      current = Math.max(current, next[1].due);
      await next[1].fn();
      // Let the fired work (database calls, re-arming) run before the next timer.
      for (let i = 0; i < 20; i++) await settle();
    }
    current = Math.max(current, target);
    for (let i = 0; i < 5; i++) await settle();
  }

  const clock: ManualClock = {
    now: () => current,
    setTimer(delayMs, fn) {
      const id = ++seq;
      timers.set(id, { due: current + Math.max(0, delayMs), fn });
      return { cancel: () => void timers.delete(id) };
    },
    advance: (ms) => moveTo(current + ms, false),
    set: (target) => moveTo(target, false),
    jump: (ms) => moveTo(current + ms, true),
  };
  return clock;
}
