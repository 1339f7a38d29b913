/**
 * The run's summary (issue 21, part 3): every figure `npm run bench` reports, as the median of several runs with its
 * spread and the runs' values, against its target where an issue states one. bench/run.ts adds each figure as it is
 * measured; the summary is rewritten to bench/results/<start time>.json after each one (so a run cut short still
 * leaves what it measured) and printed as a Markdown table at the end. bench/readme-table.ts puts that table into
 * README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { median, ROOT } from './lib.ts';

/** A figure's target: at least (`>=`) or at most (`<=`) `value`. */
export interface Target {
  op: '>=' | '<=';
  value: number;
}

export interface FigureSummary {
  name: string;
  /** "ratio", "/s", "ms", "subscribers", "count". */
  unit: string;
  target: Target | null;
  median: number;
  min: number;
  max: number;
  /** Each run's value, in the order measured. */
  runs: number[];
}

export interface BenchResults {
  /** When the run started (ISO 8601, UTC). */
  date: string;
  machine: { cpuModel: string; cpus: number; totalMemoryBytes: number; node: string; platform: string };
  /** The environment that shaped the run: BENCH_SECONDS, BENCH_ROUNDS, BENCH_FANOUT_ROUNDS, switches set to 0. */
  settings: Record<string, string | number>;
  /** False until the last figure is in (a run cut short, or one whose area failed). */
  complete: boolean;
  figures: FigureSummary[];
  /** Areas that threw: their figures are missing. */
  failures: Array<{ area: string; error: string }>;
}

export const atLeast = (value: number): Target => ({ op: '>=', value });
export const atMost = (value: number): Target => ({ op: '<=', value });

/** Runs `measure` `rounds` times, one after the other, saying which run is under way (and printing each, given `print`). */
export async function repeat<T>(what: string, rounds: number, measure: () => Promise<T>, print?: (figure: T) => void): Promise<T[]> {
  const results: T[] = [];
  for (let run = 1; run <= rounds; run++) {
    if (rounds > 1) console.log(`${what}: run ${run} of ${rounds}`);
    const figure = await measure();
    print?.(figure); // each run's own lines as it ends, before the next one starts
    results.push(figure);
  }
  return results;
}

export function machine(): BenchResults['machine'] {
  const all = cpus();
  return { cpuModel: all[0]?.model.trim() ?? 'unknown', cpus: all.length, totalMemoryBytes: totalmem(), node: process.version, platform: `${process.platform} ${process.arch}` };
}

export class BenchSummary {
  readonly results: BenchResults;
  readonly file: string;

  constructor(settings: Record<string, string | number>, startedAt = new Date()) {
    this.results = { date: startedAt.toISOString(), machine: machine(), settings, complete: false, figures: [], failures: [] };
    // Colons are not welcome in every file system's names.
    this.file = join(ROOT, 'bench', 'results', `${this.results.date.replace(/:/gu, '-')}.json`);
  }

  /** Records a figure from its runs' values (a run that gave no value is left out) and prints it with its spread. */
  add(name: string, unit: string, values: Array<number | null | undefined>, target: Target | null = null): void {
    const runs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (runs.length === 0) {
      console.log(`  ${name}: no run gave a value`);
      return;
    }
    const figure: FigureSummary = { name, unit, target, median: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs };
    this.results.figures.push(figure);
    console.log(`  → ${name}: ${describe(figure)}`);
    this.write();
  }

  fail(area: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.results.failures.push({ area, error: message.slice(0, 500) });
    console.error(`${area} failed: ${message}`);
    this.write();
  }

  finish(): void {
    this.results.complete = this.results.failures.length === 0;
    this.write();
    console.log(`\n${markdownHeading(this.results)}\n\n${markdownTable(this.results)}\n\nsummary written to ${this.file}`);
  }

  private write(): void {
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(this.file, `${JSON.stringify(this.results, null, 2)}\n`);
  }
}

/** A value in its unit's precision: ratios to two places (three below 0.1), rates and counts whole, ms to one place. */
export function format(value: number, unit: string): string {
  if (unit === 'ratio') return value.toFixed(Math.abs(value) < 0.1 ? 3 : 2);
  if (unit === 'ms') return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

/**
 * A figure's values in its unit's precision, one place more for a ratio whose median would otherwise read as its
 * target when it misses or meets it only by less (0.947 is not 0.95).
 */
function formatter(figure: FigureSummary): (value: number) => string {
  const plain = (value: number) => format(value, figure.unit);
  const { target } = figure;
  if (figure.unit !== 'ratio' || !target || figure.median === target.value || plain(figure.median) !== plain(target.value)) return plain;
  const places = Math.abs(figure.median) < 0.1 ? 4 : 3;
  return (value: number) => value.toFixed(places);
}

const targetText = (figure: FigureSummary) => (figure.target ? `${figure.target.op === '>=' ? '≥' : '≤'} ${format(figure.target.value, figure.unit)}` : '');

/** Whether the median meets the target: "yes", "no", or "" when there is none. */
function met(figure: FigureSummary): string {
  if (!figure.target) return '';
  const ok = figure.target.op === '>=' ? figure.median >= figure.target.value : figure.median <= figure.target.value;
  return ok ? 'yes' : 'no';
}

/** "0.53 (0.49–0.84; runs 0.53, 0.84, 0.49)", with the target when there is one. */
export function describe(figure: FigureSummary): string {
  const f = formatter(figure);
  const unit = figure.unit === 'ratio' || figure.unit === 'count' ? '' : ` ${figure.unit}`;
  const target = figure.target ? `, target ${targetText(figure)}: ${met(figure) === 'yes' ? 'met' : 'not met'}` : '';
  return `${f(figure.median)}${unit} (${f(figure.min)}–${f(figure.max)}; runs ${figure.runs.map(f).join(', ')}${target})`;
}

/** One line: when, on what, with which settings. */
export function markdownHeading(results: BenchResults): string {
  const { machine: m, settings } = results;
  const when = `${results.date.slice(0, 10)} ${results.date.slice(11, 16)} UTC`;
  const memory = `${(m.totalMemoryBytes / 2 ** 30).toFixed(0)} GiB`;
  const env = Object.entries(settings).map(([name, value]) => `${name}=${value}`).join(' ');
  const partial = results.complete ? '' : ` Incomplete: ${results.failures.map((f) => `${f.area} failed`).join(', ') || 'the run was cut short'}.`;
  return `Measured ${when} on ${m.cpus} × ${m.cpuModel}, ${memory}, Node ${m.node} (\`${env} npm run bench\`).${partial}`;
}

/** The figures as a Markdown table: median, min–max and every run's value. */
export function markdownTable(results: BenchResults): string {
  const lines = ['| figure | unit | target | median | min–max | runs | met |', '|---|---|---|---|---|---|---|'];
  for (const figure of results.figures) {
    const f = formatter(figure);
    const cells = [figure.name, figure.unit, targetText(figure), f(figure.median), `${f(figure.min)}–${f(figure.max)}`, figure.runs.map(f).join(', '), met(figure)];
    lines.push(`| ${cells.map((c) => c.replace(/\|/gu, '\\|')).join(' | ')} |`);
  }
  return lines.join('\n');
}
