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

export function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `"${raw}" is not a URL.`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `"${raw}" must start with ${protocols.map((p) => p + '//').join(' or ')}.`);
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
