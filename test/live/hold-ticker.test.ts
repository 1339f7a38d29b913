/**
 * The shared hold ticker (src/orders/hold-ticker.ts): each watch hears its whole seconds left each time that number
 * changes, on its own second boundary, and 0 once. Before, a hold that was over but not yet ended by the hold timer
 * heard 0 again at every later boundary, and a countdown sent it as another tick (seen as [1, 0, 0] in a full run).
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { createHoldTicker } from '../../src/orders/hold-ticker.ts';

describe('hold ticker', () => {
  it('ticks each whole second left as it changes, 0 once, and then lets the watch go', async () => {
    const clock = createManualClock();
    const ticker = createHoldTicker(clock);
    const holdUntil = clock.now() + 2_500;
    const heard: Array<[number, number]> = [];
    const unwatch = ticker.watch(holdUntil, (secondsLeft) => heard.push([secondsLeft, clock.now() - holdUntil]));
    await clock.advance(6_000); // well past the end: the hold timer has not ended the order yet
    expect(heard.map(([secondsLeft]) => secondsLeft)).toEqual([1, 0]);
    // Each just after its boundary (holdUntil - 2000, holdUntil - 1000), within one slot.
    for (const [secondsLeft, sinceEnd] of heard) expect(sinceEnd + (secondsLeft + 1) * 1000).toBeLessThanOrEqual(10);
    expect(ticker.size()).toBe(0);
    unwatch(); // still safe once the ticker has let it go
    expect(ticker.size()).toBe(0);
    ticker.dispose();
  });

  it('never repeats the number a watch began with, when it begins just after its boundary, before the next slot', async () => {
    // A frontend review: holdCountdown opened within moments of createOrder sent 299 twice, at the same instant.
    const clock = createManualClock(Date.UTC(2026, 10, 22, 15, 0, 0) + 5); // 5 ms into a 10 ms slot
    const ticker = createHoldTicker(clock);
    const holdUntil = clock.now() + 2_997; // a boundary 3 ms ago, in this slot: its slot to tick starts in 5 ms
    const began = Math.floor((holdUntil - clock.now()) / 1000);
    const heard: number[] = [];
    ticker.watch(holdUntil, (secondsLeft) => heard.push(secondsLeft));
    await clock.advance(4_000);
    expect([began, ...heard]).toEqual([2, 1, 0]);
    ticker.dispose();
  });

  it('lets go only the watch whose hold is over: the others tick on', async () => {
    const clock = createManualClock();
    const ticker = createHoldTicker(clock);
    const heard: number[] = [];
    ticker.watch(clock.now() + 1_500, (secondsLeft) => heard.push(secondsLeft));
    const other: number[] = [];
    ticker.watch(clock.now() + 60_000, (secondsLeft) => other.push(secondsLeft));
    await clock.advance(5_000);
    expect(heard).toEqual([0]);
    expect(other).toEqual([59, 58, 57, 56, 55]);
    expect(ticker.size()).toBe(1);
    ticker.dispose();
  });
});
