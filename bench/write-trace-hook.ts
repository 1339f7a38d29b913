/**
 * Preloaded (`node --import tsx --import ./bench/write-trace-hook.ts dist/src/main.js`) into the gateway that
 * bench/write-baseline.ts checks its baselines against, never into a measured one: counts every statement the
 * gateway runs, by its text (whitespace collapsed), at the drivers' own entry points (test/support/statements.ts),
 * below kysely, so nothing the gateway does is missed.
 * Over the IPC channel: 'reset' clears the counts, 'counts' sends them.
 */
import { watchStatements } from '../test/support/statements.ts';

const counts = new Map<string, number>();
watchStatements(({ sql }) => {
  const key = sql.replace(/\s+/gu, ' ').trim();
  counts.set(key, (counts.get(key) ?? 0) + 1);
});

process.on('message', (message) => {
  if (message === 'reset') counts.clear();
  if (message === 'counts') process.send!(Object.fromEntries(counts));
});
