/**
 * Configuration from environment variables only (docs/running.md#configuration). Every variable is optional; a bad value stops
 * start-up with one line that names it. Secrets left unset are generated and listed in `generated`, so the
 * process can print them once.
 */
import { randomToken } from './tokens.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * SQLite's `synchronous` with WAL (SQLITE_SYNCHRONOUS, docs/running.md#durability-of-the-embedded-database): `full`
 * syncs the WAL on every commit, so a commit survives an OS crash or power loss; `normal` syncs only at
 * checkpoints, faster, and a power loss may roll back the last commits (never corrupts the file).
 */
export const SQLITE_SYNCHRONOUS = ['full', 'normal'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

export type DatabaseTarget =
  // path ':memory:' for an in-memory database; synchronous defaults to 'full'
  | { kind: 'sqlite'; path: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; url: string };

export interface RateLimitConfig {
  /** Window length in milliseconds. */
  windowMs: number;
  /** Requests per window and client address for reads (options, lookup, event info). */
  read: number;
  /** Requests per window and client address for writes (create, pay). */
  write: number;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  database: DatabaseTarget;
  /** Where generated files (the vault key) live; null for an in-memory database. */
  dataDir: string | null;
  redisUrl: string | null;
  /** Prefix of the Redis channels (REDIS_PREFIX): one per event, so deployments sharing a Redis stay apart. */
  redisPrefix: string;
  holdSeconds: number;
  adminToken: string;
  vendorSiteId: string;
  vendorApiKey: string;
  merchantEndpoint: string | null;
  merchantSigningKey: string;
  /** Delays between delivery attempts, in milliseconds; the first is usually 0. */
  notifyRetrySchedule: number[];
  evidenceReminderHours: number;
  vaultKey: Buffer | null;
  processorPublicKey: string;
  processorPrivateKey: string;
  logLevel: LogLevel;
  rateLimits: RateLimitConfig;
  /** Largest accepted request body, in bytes (413 above it). */
  maxBodyBytes: number;
}

export interface LoadedConfig {
  config: Config;
  /** Names and values of the secrets that were generated because their variable was unset. */
  generated: Array<{ name: string; value: string }>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^-?\d+$/u.test(raw.trim())) throw new ConfigError(name, `"${raw}" is not a whole number.`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `${value} is outside ${min}..${max}.`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | null {
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

const DURATION_UNITS: Record<string, number> = { '': 1000, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `0,5s,5m,30m,2h` → milliseconds; a bare number is seconds. */
export function parseSchedule(name: string, raw: string): number[] {
  const steps = raw.split(',').map((part) => part.trim());
  return steps.map((step) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/u.exec(step);
    if (!match) throw new ConfigError(name, `"${step}" is not a duration like 0, 5s, 5m or 2h.`);
    return Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? '']!);
  });
}

/** Checked whatever the database, so a typo stops start-up even while DATABASE_URL points at PostgreSQL. */
function sqliteSynchronous(env: Env): SqliteSynchronous {
  const raw = env.SQLITE_SYNCHRONOUS?.trim().toLowerCase() || 'full';
  if (!(SQLITE_SYNCHRONOUS as readonly string[]).includes(raw)) {
    throw new ConfigError('SQLITE_SYNCHRONOUS', `"${env.SQLITE_SYNCHRONOUS}" must be full (durable, the default) or normal (faster; a power loss may lose the last commits).`);
  }
  return raw as SqliteSynchronous;
}

function database(env: Env): { database: DatabaseTarget; dataDir: string | null } {
  const raw = env.DATABASE_URL?.trim() || 'file:./data/sleeve.db';
  const synchronous = sqliteSynchronous(env);
  if (raw === ':memory:' || raw === 'file::memory:') return { database: { kind: 'sqlite', path: ':memory:', synchronous }, dataDir: null };
  if (raw.startsWith('file:')) {
    const path = raw.slice('file:'.length).split('?')[0]!;
    if (!path) throw new ConfigError('DATABASE_URL', `"${raw}" names no file.`);
    const slash = path.lastIndexOf('/');
    return { database: { kind: 'sqlite', path, synchronous }, dataDir: slash >= 0 ? path.slice(0, slash) || '/' : '.' };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL.');
    }
    return { database: { kind: 'postgres', url: raw }, dataDir: env.DATA_DIR?.trim() || './data' };
  }
  throw new ConfigError('DATABASE_URL', `"${raw}" must be file:PATH, :memory: or postgres://…`);
}

function secret(env: Env, name: string, generated: LoadedConfig['generated'], make: () => string): string {
  const raw = env[name]?.trim();
  if (raw) return raw;
  const value = make();
  generated.push({ name, value });
  return value;
}

function vaultKey(env: Env): Buffer | null {
  const raw = env.VAULT_KEY?.trim();
  if (!raw) return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('VAULT_KEY', 'must be 32 bytes, base64-encoded.');
  return key;
}

export function loadConfig(env: Env = process.env): LoadedConfig {
  const generated: LoadedConfig['generated'] = [];
  const port = integer(env, 'PORT', 4000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}.`);

  const config: Config = {
    port,
    host,
    publicUrl,
    ...database(env),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: env.REDIS_PREFIX?.trim() ?? 'sleeve:',
    holdSeconds: integer(env, 'HOLD_SECONDS', 300, 1, 86_400),
    adminToken: secret(env, 'ADMIN_TOKEN', generated, () => randomToken()),
    vendorSiteId: secret(env, 'VENDOR_SITE_ID', generated, () => `site_${randomToken(9)}`),
    vendorApiKey: secret(env, 'VENDOR_API_KEY', generated, () => randomToken()),
    merchantEndpoint: url(env, 'MERCHANT_ENDPOINT', ['http:', 'https:']),
    merchantSigningKey: secret(env, 'MERCHANT_SIGNING_KEY', generated, () => randomToken()),
    notifyRetrySchedule: parseSchedule(
      'NOTIFY_RETRY_SCHEDULE',
      env.NOTIFY_RETRY_SCHEDULE?.trim() || '0,5s,5m,30m,2h,5h,10h,10h',
    ),
    evidenceReminderHours: integer(env, 'EVIDENCE_REMINDER_HOURS', 24, 1, 24 * 30),
    vaultKey: vaultKey(env),
    processorPublicKey: secret(env, 'PROCESSOR_PUBLIC_KEY', generated, () => `pk_${randomToken(12)}`),
    processorPrivateKey: secret(env, 'PROCESSOR_PRIVATE_KEY', generated, () => randomToken()),
    logLevel,
    rateLimits: {
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600) * 1000,
      read: integer(env, 'RATE_LIMIT_READ', 600, 1, 10_000_000),
      write: integer(env, 'RATE_LIMIT_WRITE', 60, 1, 10_000_000),
    },
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 64 * 1_048_576),
  };
  return { config: Object.freeze(config), generated };
}
