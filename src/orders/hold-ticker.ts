/**
 * The one shared hold ticker (issue: no timer per subscriber). Each watched order ticks on its own second
 * boundary — the instants where its whole `secondsLeft` changes, holdUntil minus whole seconds — so the work is
 * spread across the second instead of one burst for every subscriber at once.
 *
 * Orders are kept in slots by where in the second their boundary falls (SLOT_MS wide); one timer walks the
 * non-empty slots in order. Every instance ticks only its own subscribers and computes `secondsLeft` from
 * `holdUntil` and its own clock, so nothing about ticks crosses the bus.
 */
import type { Clock, Timer } from '../kernel/clock.ts';
import { secondsLeft } from './order.ts';

const SLOT_MS = 10;
const SLOTS = 1000 / SLOT_MS;

export type TickListener = (secondsLeft: number) => void;

interface Watch {
  holdUntil: number;
  listener: TickListener;
  /** The whole seconds left last heard (or, before the first tick, when the watch began). */
  heard: number;
}

export interface HoldTicker {
  /**
   * Calls `listener` with the whole seconds left each time that number changes from what it was when the watch
   * began, down to 0 once, after which the watch is let go by itself; returns the unwatch (safe to call after that too).
   */
  watch(holdUntil: number, listener: TickListener): () => void;
  /** Watches currently registered (for tests and metrics). */
  size(): number;
  dispose(): void;
}

export function createHoldTicker(clock: Clock): HoldTicker {
  const slots: Array<Set<Watch>> = Array.from({ length: SLOTS }, () => new Set());
  let count = 0;
  let timer: Timer | null = null;
  let armedAt = Infinity;
  /** Slots up to and including this instant's slot have been handled. */
  let cursor = floorToSlot(clock.now());

  function floorToSlot(instant: number): number {
    return instant - (((instant % SLOT_MS) + SLOT_MS) % SLOT_MS);
  }
  function slotOf(instant: number): number {
    return Math.floor((((instant % 1000) + 1000) % 1000) / SLOT_MS);
  }

  /** The start of the first non-empty slot after the cursor. */
  function nextDue(): number {
    for (let at = cursor + SLOT_MS; at <= cursor + 1000; at += SLOT_MS) {
      if (slots[slotOf(at)]!.size > 0) return at;
    }
    return Infinity;
  }

  function arm(): void {
    const due = nextDue();
    if (due === armedAt) return;
    timer?.cancel();
    timer = null;
    armedAt = due;
    if (due !== Infinity) timer = clock.setTimer(Math.max(0, due - clock.now()), fire);
  }

  function fire(): void {
    timer = null;
    armedAt = Infinity;
    const now = clock.now();
    // Every slot since the last pass, in order: a busy moment makes ticks late, never lost (up to a second).
    const end = Math.min(floorToSlot(now), cursor + 1000);
    for (let at = cursor + SLOT_MS; at <= end; at += SLOT_MS) {
      const slot = slots[slotOf(at)]!;
      for (const watch of [...slot]) {
        const left = secondsLeft(watch.holdUntil, now);
        // 0 is the last number: it cannot change again, so the watch is let go. Kept, it heard 0 again at every
        // boundary until the hold timer ended the order, and a countdown sent each as one more tick.
        if (left === 0 && slot.delete(watch)) count--;
        // A watch begun between its boundary and the start of the slot after it is reached within that slot's
        // 10 ms, with the number it began with: a countdown opened just after createOrder sent 299 twice.
        if (left === watch.heard) continue;
        watch.heard = left;
        watch.listener(left);
      }
    }
    cursor = floorToSlot(now);
    arm();
  }

  return {
    watch(holdUntil, listener) {
      if (count === 0) cursor = floorToSlot(clock.now());
      const watch: Watch = { holdUntil, listener, heard: secondsLeft(holdUntil, clock.now()) };
      // The first slot that starts strictly after the boundary, so the new whole number is already in effect.
      const slot = slots[(slotOf(holdUntil) + 1) % SLOTS]!;
      slot.add(watch);
      count++;
      arm();
      return () => {
        if (slot.delete(watch)) count--;
      };
    },
    size: () => count,
    dispose() {
      timer?.cancel();
      timer = null;
      for (const slot of slots) slot.clear();
      count = 0;
    },
  };
}
