/**
 * The kernel's bounded wait (src/kernel/bounded-wait.ts), which shutdown, /ready, /metrics, Redis's QUIT and
 * SUBSCRIBE and the rate limiter's connect each use against a peer that may answer nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { within } from '../../src/kernel/bounded-wait.ts';

describe('within', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives the work’s value when it settles first, and leaves no timer behind', async () => {
    const waited = within(Promise.resolve('answered'), 2_000, () => 'late');
    await expect(waited).resolves.toBe('answered');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes on the work’s rejection when it comes first', async () => {
    const waited = within(Promise.reject(new Error('refused')), 2_000, () => 'late');
    await expect(waited).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives late()’s value once the bound passes with the work still waiting', async () => {
    let settled: string | undefined;
    void within(new Promise<string>(() => undefined), 2_000, () => 'late').then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe('late');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with what late() throws', async () => {
    const waited = within(new Promise<void>(() => undefined), 500, () => {
      throw new Error('no answer within 0.5 s');
    });
    const outcome = expect(waited).rejects.toThrow('no answer within 0.5 s');
    await vi.advanceTimersByTimeAsync(500);
    await outcome;
  });
});
