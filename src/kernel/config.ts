/**
 * Configuration from environment variables only (docs/running.md#configuration). Every variable is optional; a bad value stops
 * start-up with one line that names it. Secrets left unset are generated and listed in `generated`, so the
 * process can print them once.
 */
import { ConfigError, duration, integer, oneOf, parseSchedule, redactUrl, url, type Env } from './config-values.ts';
import { compileNetworks, compileTrust } from './client-address.ts';
import { parseCorsOrigins } from './cors.ts';
import { guessableCredentials } from './credential-strength.ts';
import { randomToken } from './tokens.ts';

export { ConfigError, parseSchedule } from './config-values.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * SQLite's `synchronous` with WAL (SQLITE_SYNCHRONOUS, docs/running.md#durability-of-the-embedded-database): `full`
 * syncs the WAL on every commit, so a commit survives an OS crash or power loss; `normal` syncs only at
 * checkpoints, faster, and a power loss may roll back the last commits (never corrupts the file).
 */
export const SQLITE_SYNCHRONOUS = ['full', 'normal'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

/** SQLite's path may be ':memory:'; synchronous defaults to 'full'. */
export type DatabaseTarget =
  | { kind: 'sqlite'; path: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; url: string };

/** docs/edge.md#rate-limits-at-a-venue: per client address (a whole venue may share one) and per subject. */
export interface RateLimitConfig {
  /** RATE_LIMITS=off turns every limit off (a limiting proxy in front; the benchmark's comparison). */
  enabled: boolean;
  /** Length of the sliding window in milliseconds. */
  windowMs: number;
  /** Requests per window and client address, per route group, for reads (options, lookup). */
  read: number;
  /** Requests per window and client address, per route group, for writes (create, pay). */
  write: number;
  /** Lookups per window of one order. */
  subjectRead: number;
  /** Creates per window of one email; pays (and pay-page card or wallet steps) per window of one order. */
  subjectWrite: number;
  /** An IPv6 client is counted by this many leading bits of its address (one subscriber's prefix); 128: each address. */
  ipv6Prefix: number;
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
  /** ENDPOINT_DISABLE_AFTER in ms (docs/merchant-webhooks.md#disabling-and-recovery): continuous failure that disables an endpoint. */
  endpointDisableAfterMs: number;
  /**
   * ENDPOINT_ALLOWED_NETWORKS as written (docs/merchant-webhooks.md#where-endpoints-may-be): networks beyond the
   * public internet where merchants' endpoints may be; null allows none.
   */
  endpointAllowedNetworks: string | null;
  vaultKey: Buffer | null;
  /** VAULT_PREVIOUS_KEYS (docs/operations.md#rotating-vault_key): keys that still open values sealed before a rotation. */
  vaultPreviousKeys: readonly Buffer[];
  processorPublicKey: string;
  processorPrivateKey: string;
  logLevel: LogLevel;
  rateLimits: RateLimitConfig;
  /**
   * TRUST_PROXY as written (docs/edge.md#client-address): null reads the socket's peer and ignores forwarding
   * headers; a hop count or a list of addresses, CIDRs and names reads X-Forwarded-For as Express does.
   */
  trustProxy: string | null;
  /** CORS_ORIGINS (docs/edge.md#cors): null lets any origin call without credentials; a list allows only those. */
  corsOrigins: readonly string[] | null;
  /** Largest accepted request body, in bytes (413 above it). */
  maxBodyBytes: number;
  /** MAX_CONNECTIONS_PER_ADDRESS, MAX_STREAMS_PER_ADDRESS: what one client address holds open at once (docs/edge.md#bounds). */
  addressBounds: { connections: number; streams: number };
  /**
   * REQUEST_TIMEOUT_SECONDS (docs/edge.md#bounds): a connection that has not sent its whole request (headers and
   * body) within this time is closed, so slow senders cannot hold connections open.
   */
  requestTimeoutSeconds: number;
  /**
   * DRAIN_SECONDS (docs/operations.md#readiness): after SIGTERM, how long `/ready` answers 503 while everything else
   * is still served, before the server stops accepting — the time a load balancer needs to notice.
   */
  drainSeconds: number;
  /** GRAPHQL_TRUSTED_DOCUMENTS (docs/graphql.md#trusted-documents): `only` runs text for staff alone. */
  graphqlTrustedDocuments: 'allow' | 'only';
  /** GRAPHQL_PRODUCTION (docs/graphql.md#production): no introspection but for staff, no "Did you mean". */
  graphqlProduction: boolean;
  /** METRICS (docs/operations.md#metrics): off serves no `/metrics` and counts nothing. */
  metricsEnabled: boolean;
  /** METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer METRICS_TOKEN`; null: anyone. */
  metricsToken: string | null;
  /** LOG_REQUEST_SCOPE (docs/operations.md#request-logs): every line a request causes carries its request id. */
  logRequestScope: boolean;
}

export interface LoadedConfig {
  config: Config;
  /** Names and values of the secrets that were generated because their variable was unset. */
  generated: Array<{ name: string; value: string }>;
  /** Names of credentials set to values short enough to guess (credential-strength.ts); refused in production. */
  guessable: string[];
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
  throw new ConfigError('DATABASE_URL', `"${redactUrl(raw)}" must be file:PATH, :memory: or postgres://…`);
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
  const key = base64Key(raw);
  if (!key) throw new ConfigError('VAULT_KEY', 'must be 32 bytes, base64-encoded.');
  return key;
}

/**
 * 32 bytes written in base64 (standard or URL-safe alphabet), or null. Strict: Buffer.from skips characters outside
 * the alphabet, so a key with a stray character or a typo'd quote would decode to 32 *other* bytes and seal card data
 * under a key nobody holds; such a value is refused instead.
 */
export function base64Key(text: string): Buffer | null {
  if (!/^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+={0,2})$/u.test(text)) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

/** Comma-separated, each written like VAULT_KEY; an error names the entry by position, never by value (it is a key). */
function vaultPreviousKeys(env: Env): Buffer[] {
  const raw = env.VAULT_PREVIOUS_KEYS?.trim();
  if (!raw) return [];
  return raw.split(',').map((part, index) => {
    const key = base64Key(part.trim());
    if (!key) {
      throw new ConfigError('VAULT_PREVIOUS_KEYS', `entry ${index + 1} must be 32 bytes, base64-encoded (keys separated by commas).`);
    }
    return key;
  });
}

/** Checked here, so a typo stops start-up with one line instead of trusting nobody (or everybody) silently. */
function trustProxy(env: Env): string | null {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return null;
  try {
    compileTrust(raw);
  } catch (error) {
    throw new ConfigError('TRUST_PROXY', `"${raw}" is not a hop count or a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal (${(error as Error).message}).`);
  }
  return raw;
}

/** A list of networks (compileNetworks), checked here so that a typo stops start-up instead of allowing nothing. */
function networks(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    compileNetworks(raw);
  } catch (error) {
    throw new ConfigError(name, `"${raw}" is not a comma-separated list of addresses, CIDRs, loopback, linklocal or uniquelocal (${(error as Error).message}).`);
  }
  return raw;
}

function corsOrigins(env: Env): readonly string[] | null {
  try {
    return parseCorsOrigins(env.CORS_ORIGINS);
  } catch (error) {
    throw new ConfigError('CORS_ORIGINS', (error as Error).message);
  }
}

/**
 * Empty is unset (anyone may read /metrics); only spaces is a templating slip, refused rather than read as unset,
 * which would leave /metrics open without a word.
 */
function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN;
  if (!raw) return null;
  if (!raw.trim()) throw new ConfigError('METRICS_TOKEN', 'is only spaces; leave it empty (or unset) for an open /metrics, or set a token.');
  return raw.trim();
}

function rateLimits(env: Env): RateLimitConfig {
  const switched = env.RATE_LIMITS?.trim().toLowerCase() || 'on';
  if (switched !== 'on' && switched !== 'off') throw new ConfigError('RATE_LIMITS', `"${env.RATE_LIMITS}" must be on (the default) or off.`);
  // Defaults sized in docs/edge.md#rate-limits-at-a-venue: 2,000 attendees behind one address in 10 minutes.
  return {
    enabled: switched === 'on',
    windowMs: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600) * 1000,
    read: integer(env, 'RATE_LIMIT_READ', 6000, 1, 10_000_000),
    write: integer(env, 'RATE_LIMIT_WRITE', 2400, 1, 10_000_000),
    subjectRead: integer(env, 'RATE_LIMIT_SUBJECT_READ', 120, 1, 10_000_000),
    subjectWrite: integer(env, 'RATE_LIMIT_SUBJECT_WRITE', 20, 1, 10_000_000),
    ipv6Prefix: integer(env, 'RATE_LIMIT_IPV6_PREFIX', 56, 32, 128),
  };
}

export function loadConfig(env: Env = process.env): LoadedConfig {
  const generated: LoadedConfig['generated'] = [];
  const port = integer(env, 'PORT', 4000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  // Any case, as every other choice here is read (INFO, Warn).
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `"${env.LOG_LEVEL}" must be one of ${LOG_LEVELS.join(', ')}.`);

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
    endpointDisableAfterMs: duration(env, 'ENDPOINT_DISABLE_AFTER', '5d'),
    endpointAllowedNetworks: networks(env, 'ENDPOINT_ALLOWED_NETWORKS'),
    vaultKey: vaultKey(env),
    vaultPreviousKeys: vaultPreviousKeys(env),
    processorPublicKey: secret(env, 'PROCESSOR_PUBLIC_KEY', generated, () => `pk_${randomToken(12)}`),
    processorPrivateKey: secret(env, 'PROCESSOR_PRIVATE_KEY', generated, () => randomToken()),
    logLevel,
    rateLimits: rateLimits(env),
    trustProxy: trustProxy(env),
    corsOrigins: corsOrigins(env),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    addressBounds: { connections: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 4000, 1, 1_000_000), streams: integer(env, 'MAX_STREAMS_PER_ADDRESS', 8000, 1, 1_000_000) },
    requestTimeoutSeconds: integer(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3_600),
    drainSeconds: integer(env, 'DRAIN_SECONDS', 0, 0, 300),
    graphqlTrustedDocuments: oneOf(env, 'GRAPHQL_TRUSTED_DOCUMENTS', ['allow', 'only'] as const, 'allow', 'allow (the default: any document) or only (the manifest\'s; any document with the staff token)'),
    // On by default where NODE_ENV says production, so a deployment that sets only that is covered.
    graphqlProduction: oneOf(env, 'GRAPHQL_PRODUCTION', ['on', 'off'] as const, env.NODE_ENV?.trim() === 'production' ? 'on' : 'off', 'on (no introspection without the staff token, no suggestions) or off') === 'on',
    metricsEnabled: oneOf(env, 'METRICS', ['on', 'off'] as const, 'on', 'on (the default: /metrics is served) or off') === 'on',
    metricsToken: metricsToken(env),
    logRequestScope: oneOf(env, 'LOG_REQUEST_SCOPE', ['on', 'off'] as const, 'on', 'on (the default: every line a request causes carries its request id) or off (only its request line and the doors\' own lines do)') === 'on',
  };
  return { config: Object.freeze(config), generated, guessable: guessableCredentials(env) };
}
