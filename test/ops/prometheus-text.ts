/**
 * A strict parser of Prometheus's text exposition format, version 0.0.4 (the format `/metrics` answers): every line
 * is checked against the format's grammar, and whatever the format forbids throws, naming the line.
 *
 *  - `# HELP name text` and `# TYPE name counter|gauge|histogram|summary|untyped`, at most once per family, the
 *    TYPE before the family's first sample; other `#` lines are comments.
 *  - A sample: `name{label="value",…} value [timestamp]` — names `[a-zA-Z_:][a-zA-Z0-9_:]*`, label names
 *    `[a-zA-Z_][a-zA-Z0-9_]*` and not `__`-prefixed, values with only `\\`, `\"` and `\n` escaped, numbers as Go
 *    parses them (NaN and ±Inf in any case too), no label twice in a sample, no series twice.
 *  - A family's lines are contiguous; a histogram's samples are `_bucket` (with `le`), `_sum` and `_count`, its
 *    buckets cumulative with a `+Inf` bucket equal to `_count`; a counter is never negative.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string | undefined;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/u;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/u;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
// Go's strconv.ParseFloat, which Prometheus reads values with: decimal or exponent forms, and inf, infinity and nan in
// any case (prom-client writes NaN as `Nan`).
const FLOAT = /^(?:[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)|nan)$/iu;

function parseValue(text: string, where: string): number {
  if (!FLOAT.test(text)) throw new Error(`${where}: "${text}" is not a number`);
  if (/^[+-]?inf/iu.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return /^nan$/iu.test(text) ? Number.NaN : Number(text);
}

/** `{a="x",b="y"}` from `text` at `start` (the `{`): the labels and where the braces end. */
function parseLabels(text: string, start: number, where: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: a label without "="`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`${where}: bad label name "${name}"`);
    if (name in labels) throw new Error(`${where}: label "${name}" twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label "${name}" value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === '\\' || next === '"') value += next;
        else if (next === 'n') value += '\n';
        else throw new Error(`${where}: bad escape "\\${next}" in label "${name}"`);
      } else if (text[j] === '\n') throw new Error(`${where}: raw line feed in label "${name}"`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`${where}: label "${name}" value not closed`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`${where}: expected "," or "}" after label "${name}"`);
  }
  return { labels, end: i + 1 };
}

/** The family a sample name belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to their base name. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = families.get(name.slice(0, -suffix.length));
    if (base && (base.type === 'histogram' || base.type === 'summary')) return base;
  }
  return families.get(name);
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  const series = new Set<string>();
  let current: Family | undefined;
  const enter = (family: Family, where: string) => {
    if (current === family) return;
    if (closed.has(family.name)) throw new Error(`${where}: family ${family.name} is not contiguous`);
    if (current) closed.add(current.name);
    current = family;
  };
  const declare = (name: string, where: string): Family => {
    if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name "${name}"`);
    let family = families.get(name);
    if (!family) families.set(name, (family = { name, type: 'untyped', help: undefined, samples: [] }));
    enter(family, where);
    return family;
  };
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/u.exec(line);
      if (!match) return; // a comment
      const [, keyword, name, rest = ''] = match;
      const family = declare(name!, where);
      if (keyword === 'HELP') {
        if (family.help !== undefined) throw new Error(`${where}: second HELP for ${name}`);
        family.help = rest.replace(/\\(\\|n)/gu, (_, c: string) => (c === 'n' ? '\n' : '\\'));
      } else {
        if (!TYPES.has(rest)) throw new Error(`${where}: unknown type "${rest}"`);
        if (family.samples.length > 0 || family.type !== 'untyped') throw new Error(`${where}: TYPE of ${name} after its samples or twice`);
        family.type = rest;
      }
      return;
    }
    const nameEnd = line.search(/[{ ]/u);
    if (nameEnd <= 0) throw new Error(`${where}: not a sample: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name "${name}"`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith('{')) {
      const parsed = parseLabels(line, nameEnd, where);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const parts = rest.split(' ');
    if (parts[0] !== '' || parts.length < 2 || parts.length > 3) throw new Error(`${where}: expected " value [timestamp]": ${line}`);
    const value = parseValue(parts[1]!, where);
    if (parts[2] !== undefined && !/^-?\d+$/u.test(parts[2])) throw new Error(`${where}: bad timestamp "${parts[2]}"`);
    const family = familyOf(name, families) ?? declare(name, where);
    enter(family, where);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) throw new Error(`${where}: series ${key} twice`);
    series.add(key);
    if (family.type === 'counter' && !(value >= 0)) throw new Error(`${where}: counter ${name} is ${value}`);
    if (family.type === 'histogram' && name === `${family.name}_bucket` && !('le' in labels)) throw new Error(`${where}: bucket without le`);
    if (family.type === 'histogram' && name === family.name) throw new Error(`${where}: histogram sample without a suffix`);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** Per series: buckets by `le`, cumulative, and the `+Inf` bucket equal to `_count`. */
function checkHistogram(family: Family): void {
  const byLabels = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = byLabels.get(key) ?? { buckets: [] };
    byLabels.set(key, entry);
    if (sample.name.endsWith('_bucket')) entry.buckets.push([parseValue(le!, family.name), sample.value]);
    else if (sample.name.endsWith('_count')) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [key, { buckets, count, sum }] of byLabels) {
    if (count === undefined || sum === undefined) throw new Error(`${family.name}${key}: no _count or _sum`);
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Infinity || sorted.at(-1)![1] !== count) throw new Error(`${family.name}${key}: +Inf bucket is not _count`);
    for (let i = 1; i < sorted.length; i++) if (sorted[i]![1] < sorted[i - 1]![1]) throw new Error(`${family.name}${key}: buckets not cumulative`);
  }
}
