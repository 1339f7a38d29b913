/**
 * `npx tsx bench/readme-table.ts [bench/results/<file>.json]`: puts a run's summary table (bench/summary.ts) into
 * README.md's "Benchmark" section, between the `<!-- bench-table:start -->` and `<!-- bench-table:end -->` lines,
 * headed by the run's date, machine and settings. Without an argument it takes the newest file in bench/results/.
 * Only the lines between the markers change; the rest of README.md is left as it is.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './lib.ts';
import { markdownHeading, markdownTable, type BenchResults } from './summary.ts';

const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

function newestResults(): string {
  const dir = join(ROOT, 'bench', 'results');
  // The names are start times in ISO 8601, so the last in order is the newest.
  const newest = readdirSync(dir).filter((name) => name.endsWith('.json')).sort().at(-1);
  if (!newest) throw new Error(`no results in ${dir}: run npm run bench first`);
  return join(dir, newest);
}

export function tableBlock(results: BenchResults): string {
  const explain =
    'Each figure is the median of its runs, with the lowest and highest and every run\'s value; "met" compares the ' +
    'median with the target an issue sets. Ratios are to a baseline measured in the same run.';
  return `${wrap(`${markdownHeading(results)} ${explain}`)}\n\n${markdownTable(results)}`;
}

/** Wraps a paragraph at README.md's line width. */
function wrap(text: string, width = 116): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** README.md's text with the block between the markers replaced by `block`. */
export function replaceBlock(readme: string, block: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  return `${readme.slice(0, start + START.length)}\n${block}\n${readme.slice(end)}`;
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const file = process.argv[2] ? resolve(process.argv[2]) : newestResults();
  const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  const readmePath = join(ROOT, 'README.md');
  writeFileSync(readmePath, replaceBlock(readFileSync(readmePath, 'utf8'), tableBlock(results)));
  console.log(`README.md: the bench table from ${file} (${results.figures.length} figures, ${results.date})`);
}
