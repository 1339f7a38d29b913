/**
 * Structured JSON logs, one object a line (docs/running.md#logs). A last line of defence scrubs anything
 * that looks like a card number, so a mistake elsewhere cannot put one in a log.
 */
import type { LogLevel } from './config.ts';
import { luhnValid } from './card-number.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
// 12 to 19 digits, optionally grouped by spaces or hyphens: the shape of a card number. A UUID is matched first and
// left alone: its all-digit groups joined by hyphens can form such a run (pay_da124634-2366-4510-8416-…), and about
// one id in a thousand would otherwise lose its middle to the scrubber.
const CARD_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b(?:\d[ -]?){11,18}\d\b/giu;
const UUID = /^[0-9a-f]{8}-/iu;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export type LogSink = (line: string) => void;

/** Replaces every Luhn-valid run of 12 to 19 digits (a possible card number); timestamps mostly survive, ids all do. */
export function scrub(text: string): string {
  return text.replace(CARD_LIKE, (run) => (!UUID.test(run) && luhnValid(run.replace(/[ -]/gu, '')) ? '[redacted-number]' : run));
}

function errorFields(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(level: LogLevel, sink: LogSink = (line) => process.stdout.write(line + '\n')): Logger {
  const min = RANK[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg };
    if (fields) for (const [k, v] of Object.entries(fields)) entry[k] = errorFields(v);
    sink(scrub(JSON.stringify(entry)));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
