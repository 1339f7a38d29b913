import { describe, expect, it } from 'vitest';
import { replaceBlock, tableBlock } from '../../bench/readme-table.ts';
import { describe as describeFigure, markdownTable, repeat, type BenchResults, type FigureSummary } from '../../bench/summary.ts';

const figure = (over: Partial<FigureSummary>): FigureSummary => ({ name: 'x', unit: 'ratio', target: null, median: 0.5, min: 0.4, max: 0.6, runs: [0.4, 0.5, 0.6], ...over });

const results = (figures: FigureSummary[]): BenchResults => ({
  date: '2026-11-26T11:50:00.000Z',
  machine: { cpuModel: 'Test CPU', cpus: 2, totalMemoryBytes: 8 * 2 ** 30, node: 'v20.20.2', platform: 'linux x64' },
  settings: { BENCH_SECONDS: 5, BENCH_ROUNDS: 3 },
  complete: true,
  figures,
  failures: [],
});

describe('the bench summary', () => {
  it('runs a measure the given number of times, in order', async () => {
    let n = 0;
    expect(await repeat('test', 3, async () => ++n)).toEqual([1, 2, 3]);
  });

  it('prints the median, the spread, the runs and whether the target is met', () => {
    const table = markdownTable(results([figure({ name: 'a / b', target: { op: '>=', value: 0.7 } }), figure({ name: 'rate', unit: '/s', median: 1234.4, min: 1000, max: 2000, runs: [1000, 1234.4, 2000] })]));
    expect(table).toContain('| a / b | ratio | ≥ 0.70 | 0.50 | 0.40–0.60 | 0.40, 0.50, 0.60 | no |');
    expect(table).toContain('| rate | /s |  | 1,234 | 1,000–2,000 | 1,000, 1,234, 2,000 |  |');
  });

  it('shows one more place when the median would read as its target', () => {
    const close = figure({ target: { op: '>=', value: 0.95 }, median: 0.947, min: 0.945, max: 0.954, runs: [0.945, 0.947, 0.954] });
    expect(describeFigure(close)).toBe('0.947 (0.945–0.954; runs 0.945, 0.947, 0.954, target ≥ 0.95: not met)');
  });
});

describe('the README table', () => {
  const readme = 'before\n<!-- bench-table:start -->\nold table\n<!-- bench-table:end -->\nafter\n';

  it('replaces only what lies between the markers, and again the same way', () => {
    const once = replaceBlock(readme, tableBlock(results([figure({})])));
    expect(once.startsWith('before\n<!-- bench-table:start -->\nMeasured 2026-11-26 11:50 UTC on 2 × Test CPU, 8 GiB, Node v20.20.2')).toBe(true);
    expect(once.endsWith('| x | ratio |  | 0.50 | 0.40–0.60 | 0.40, 0.50, 0.60 |  |\n<!-- bench-table:end -->\nafter\n')).toBe(true);
    expect(replaceBlock(once, 'old table')).toBe(readme);
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceBlock('no markers', 'table')).toThrow(/bench-table/u);
  });
});
