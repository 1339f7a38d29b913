/**
 * Reading one environment value for config.ts (docs/running.md#configuration): whole numbers, URLs, durations and
 * choices, each refused with a ConfigError that names its variable, so a bad value stops start-up in one line.
 */
import { durationMs, parseDuration } from './durations.ts';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
  }
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^-?\d+$/u.test(raw.trim())) throw new ConfigError(name, `"${raw}" is not a whole number.`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `${value} is outside ${min}..${max}.`);
  return value;
}

/**
 * A URL as a refusal may quote it: everything before its last `@` (user and password) becomes `***`, since the line
 * goes to stderr and on to the log store. Done on the text, not with URL, because the values refused are often the
 * ones URL cannot parse (`redis//:pw@host`); cutting at the last `@` also covers a password holding `@` or `/`.
 */
export function redactUrl(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at < 0) return raw;
  const slashes = raw.indexOf('//');
  const start = slashes >= 0 && slashes < at ? slashes + 2 : 0;
  return `${raw.slice(0, start)}***${raw.slice(at)}`;
}

export function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `"${redactUrl(raw)}" is not a URL.`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `"${redactUrl(raw)}" must start with ${protocols.map((p) => p + '//').join(' or ')}.`);
  }
  return raw.replace(/\/+$/u, '');
}

/** `0,5s,5m,30m,2h` → milliseconds; a bare number is seconds. */
export function parseSchedule(name: string, raw: string): number[] {
  return raw.split(',').map((step) => durationMs(step) ?? configError(name, `"${step.trim()}" is not a duration like 0, 5s, 5m or 2h.`));
}

export function configError(name: string, message: string): never {
  throw new ConfigError(name, message);
}

export function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T, meaning: string): T {
  const raw = env[name]?.trim().toLowerCase() || fallback;
  if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(name, `"${env[name]}" must be ${meaning}.`);
  return raw as T;
}

export function duration(env: Env, name: string, fallback: string): number {
  return parseDuration(env[name]?.trim() || fallback) ?? configError(name, `"${env[name]}" is not a duration like 30m, 12h or 5d.`);
}
