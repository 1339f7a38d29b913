/**
 * The timer behind every due-time job (src/jobs/due-sweeper.ts), on a manual clock: it sweeps at the next
 * due time the sweep reports, sooner when armed for an earlier one, at the poll otherwise, one sweep at a time,
 * again a second after a failure, and never after dispose.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createDueSweeper } from '../../src/jobs/due-sweeper.ts';

function setup(next: () => number | null, fail = () => false) {
  const clock = createManualClock();
  const start = clock.now();
  const sweeps: number[] = [];
  const errors: string[] = [];
  const logger = createLogger('error', (line) => errors.push(line));
  const sweeper = createDueSweeper({
    clock,
    logger,
    name: 'test',
    pollMs: 60_000,
    async sweepOnce() {
      sweeps.push(clock.now() - start);
      if (fail()) throw new Error('database away');
      return next();
    },
  });
  return { clock, start, sweeps, errors, sweeper };
}

describe('the due sweeper', () => {
  it('sweeps at the due time the last sweep reported, else at the poll', async () => {
    let due: number | null = null;
    const { clock, start, sweeps, sweeper } = setup(() => due);
    due = clock.now() + 5_000;
    await sweeper.sweep();
    due = null;
    await clock.advance(4_999);
    expect(sweeps).toEqual([0]);
    await clock.advance(1);
    expect(sweeps).toEqual([0, 5_000]);
    await clock.advance(60_000);
    expect(sweeps).toEqual([0, 5_000, 65_000]);
    expect(start).toBeLessThan(clock.now());
    await sweeper.dispose();
  });

  it('polls every minute of an advance, and once, late, after a jump (as a suspended process wakes)', async () => {
    const { clock, sweeps, sweeper } = setup(() => null);
    await sweeper.sweep();
    await clock.advance(3 * 60_000);
    expect(sweeps).toEqual([0, 60_000, 120_000, 180_000]);
    await clock.jump(24 * 3_600_000);
    expect(sweeps).toEqual([0, 60_000, 120_000, 180_000, 180_000 + 24 * 3_600_000]);
    await clock.advance(60_000);
    expect(sweeps.at(-1)).toBe(240_000 + 24 * 3_600_000);
    await sweeper.dispose();
  });

  it('is armed sooner by an earlier due time, and not moved by a later one', async () => {
    const { clock, sweeps, sweeper } = setup(() => null);
    await sweeper.sweep();
    sweeper.arm(clock.now() + 2_000);
    sweeper.arm(clock.now() + 3_000); // later than the armed time: no change
    await clock.advance(2_000);
    expect(sweeps).toEqual([0, 2_000]);
    await clock.advance(1_000);
    expect(sweeps).toEqual([0, 2_000]);
    await sweeper.dispose();
  });

  it('logs a failed sweep and tries again a second later', async () => {
    let failures = 1;
    const { clock, sweeps, errors, sweeper } = setup(() => null, () => failures-- > 0);
    await sweeper.sweep();
    expect(errors.join('\n')).toContain('test sweep failed; retrying');
    await clock.advance(1_000);
    expect(sweeps).toEqual([0, 1_000]);
    await sweeper.dispose();
  });

  it('runs sweeps one after another, and none after dispose', async () => {
    let inside = 0;
    let overlapped = false;
    let count = 0;
    const clock = createManualClock();
    const sweeper = createDueSweeper({
      clock,
      logger: createLogger('silent'),
      name: 'test',
      pollMs: 1_000,
      async sweepOnce() {
        overlapped ||= inside > 0;
        inside++;
        count++;
        await new Promise((r) => setTimeout(r, 5));
        inside--;
        return null;
      },
    });
    await Promise.all([sweeper.sweep(), sweeper.sweep(), sweeper.sweep()]);
    expect(overlapped).toBe(false);
    expect(count).toBe(3);
    await sweeper.dispose();
    await sweeper.sweep();
    await clock.advance(5_000); // past the poll: no timer is left either
    expect(count).toBe(3);
  });
});
