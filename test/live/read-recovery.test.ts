/**
 * src/events/read-recovery.ts: the live streams' failed reads wait for the database, and the streams read again once
 * it answers. Its timing, on a manual clock: one probe a second for the whole process however many reads failed,
 * the resume once (with how long reads were failing), and a failure after that starts over.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createReadRecovery, RECOVERY_PROBE_MS } from '../../src/events/read-recovery.ts';
import { DomainError } from '../../src/kernel/errors.ts';

/** What the PostgreSQL driver's wrapper throws for a lost connection (src/db/connection-loss.ts). */
const outage = () => new DomainError('unavailable', 'The database cannot be reached right now.');

function setUp() {
  const clock = createManualClock();
  let answers = false;
  let probes = 0;
  const busHandlers = new Set<(awayMs: number) => void>();
  const lines: string[] = [];
  const recovery = createReadRecovery({
    onBusResume: (handler) => {
      busHandlers.add(handler);
      return () => busHandlers.delete(handler);
    },
    probe: async () => {
      probes++;
      if (!answers) throw new Error('connect ECONNREFUSED');
    },
    clock,
    logger: createLogger('info', (line) => lines.push(line)),
  });
  const resumes: number[] = [];
  const stop = recovery.onResume((awayMs) => resumes.push(awayMs));
  return { clock, recovery, resumes, stop, busHandlers, lines, probes: () => probes, answer: () => (answers = true) };
}

describe('read recovery', () => {
  it('probes once a second while the database does not answer, then resumes every stream once with the time away', async () => {
    const { clock, recovery, resumes, probes, answer, lines } = setUp();
    for (let i = 0; i < 5; i++) recovery.readFailed('order updates', outage());
    await clock.advance(3 * RECOVERY_PROBE_MS);
    expect([probes(), resumes]).toEqual([3, []]);
    answer();
    await clock.advance(RECOVERY_PROBE_MS);
    expect([probes(), resumes]).toEqual([4, [4 * RECOVERY_PROBE_MS]]);
    await clock.advance(10 * RECOVERY_PROBE_MS);
    expect(resumes).toHaveLength(1);
    expect(probes()).toBe(4); // nothing failing: no probe
    // One warning for the outage, one line for the recovery; the failure's text is not repeated per stream.
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'order updates: a read failed; read again once the database answers',
      'live streams read again after the database was unreadable',
    ]);
  });

  it('reports a failure of `guarded` work and passes its success, and starts over on a failure after a resume', async () => {
    const { clock, recovery, resumes, answer } = setUp();
    answer();
    await recovery.guarded('pickup board', async () => 'fine');
    await clock.advance(5 * RECOVERY_PROBE_MS);
    expect(resumes).toEqual([]);
    await recovery.guarded('pickup board', async () => {
      throw outage();
    });
    await clock.advance(RECOVERY_PROBE_MS);
    recovery.readFailed('pickup board', outage());
    await clock.advance(2 * RECOVERY_PROBE_MS);
    expect(resumes).toEqual([RECOVERY_PROBE_MS, RECOVERY_PROBE_MS]);
  });

  it('logs a read that fails for another reason and waits for nothing: it would fail again at every resume', async () => {
    const { clock, recovery, resumes, probes, answer, lines } = setUp();
    answer();
    await recovery.guarded('order updates', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'status')");
    });
    await clock.advance(5 * RECOVERY_PROBE_MS);
    expect([probes(), resumes]).toEqual([0, []]);
    // What a stream is told, to end or to wait (holdCountdown ends without a final event on the first).
    expect([recovery.readFailed('hold countdown', new RangeError('x')), recovery.readFailed('hold countdown', outage())]).toEqual([false, true]);
    expect(lines.map((line) => [JSON.parse(line).level, JSON.parse(line).msg]).slice(0, 2)).toEqual([
      ['error', 'order updates: a read failed'],
      ['error', 'hold countdown: a read failed'],
    ]);
  });

  it("hands each handler to the bus's resume too, and stops both on its stop", async () => {
    const { clock, recovery, resumes, stop, busHandlers, answer } = setUp();
    for (const handler of busHandlers) handler(2_000);
    expect(resumes).toEqual([2_000]);
    stop();
    expect(busHandlers.size).toBe(0);
    answer();
    recovery.readFailed('order events', outage());
    await clock.advance(RECOVERY_PROBE_MS);
    expect(resumes).toEqual([2_000]);
  });
});
