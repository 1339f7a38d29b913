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
