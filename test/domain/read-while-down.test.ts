/**
 * src/pages/app/read-while-down.js on its own, with vitest's fake timers: one chain of reads at a time. A screen that
 * went live and was lost again while a read was under way had that read schedule its next, and `soon` a second
 * chain beside it: the screen then read twice as often for as long as it stayed down.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readWhileDown } from '../../src/pages/app/read-while-down.js';

afterEach(() => void vi.useRealTimers());

describe('readWhileDown', () => {
  it('keeps one chain of reads when the connection comes back and goes again during a read', async () => {
    vi.useFakeTimers();
    let live = false;
    let finish: () => void = () => {};
    const reads: number[] = [];
    const polling = readWhileDown({
      read: () => new Promise<void>((resolve) => ((finish = resolve), reads.push(Date.now()))),
      onRead: () => {},
      stopped: () => live,
      afterMs: 1000,
      everyMs: 1000,
    });
    polling.soon();
    await vi.advanceTimersByTimeAsync(1000); // the first read starts, and hangs
    live = true;
    polling.stop();
    live = false;
    polling.soon(); // lost again while that read is under way
    finish();
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      finish();
    }
    expect(reads).toHaveLength(6); // one read a second, not two
  });
});
