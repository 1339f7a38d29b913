/**
 * The names of the settings the gateway reads (the README's Configuration table; test/config-table.test.ts keeps the
 * two lists equal), so that `createGateway({ env })` can name a misspelt one. A frontend team's test that wrote
 * `{ HOLD_SECOND: '60', RATE_LIMIT: 'off' }` ran with the 5-minute hold and the limits on, and nothing said so
 * (a frontend review): a literal with a wrong name is now a type error, and a name that is not one but looks like
 * one (below) rejects with ConfigError, naming the setting it resembles.
 */
import { ConfigError } from './config-values.ts';

export const SETTING_NAMES = [
  'ADMIN_TOKEN',
  'CORS_ORIGINS',
  'DATABASE_URL',
  'DATA_DIR',
  'DRAIN_SECONDS',
  'ENDPOINT_ALLOWED_NETWORKS',
  'ENDPOINT_DISABLE_AFTER',
  'EVIDENCE_REMINDER_HOURS',
  'GRAPHQL_PRODUCTION',
  'GRAPHQL_TRUSTED_DOCUMENTS',
  'HOLD_SECONDS',
  'HOST',
  'LOG_LEVEL',
  'LOG_REQUEST_SCOPE',
  'MAX_BODY_BYTES',
  'MAX_CONNECTIONS_PER_ADDRESS',
  'MAX_STREAMS_PER_ADDRESS',
  'MERCHANT_ENDPOINT',
  'MERCHANT_SIGNING_KEY',
  'METRICS',
  'METRICS_TOKEN',
  'NODE_ENV',
  'NOTIFY_RETRY_SCHEDULE',
  'PORT',
  'PROCESSOR_PRIVATE_KEY',
  'PROCESSOR_PUBLIC_KEY',
  'PUBLIC_URL',
  'RATE_LIMITS',
  'RATE_LIMIT_IPV6_PREFIX',
  'RATE_LIMIT_READ',
  'RATE_LIMIT_SUBJECT_READ',
  'RATE_LIMIT_SUBJECT_WRITE',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_WRITE',
  'REDIS_PREFIX',
  'REDIS_URL',
  'REQUEST_TIMEOUT_SECONDS',
  'SQLITE_SYNCHRONOUS',
  'TRUST_PROXY',
  'VAULT_KEY',
  'VAULT_PREVIOUS_KEYS',
  'VENDOR_API_KEY',
  'VENDOR_SITE_ID',
] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

/** The settings `createGateway({ env })` takes, as environment variables' strings. */
export type GatewayEnv = { [name in SettingName]?: string | undefined };

const KNOWN: ReadonlySet<string> = new Set(SETTING_NAMES);

/**
 * The setting `name` looks like when it is none: within two edits of one (HOLD_SECOND, RATE_LIMIT_REED; one edit
 * for a name under 6 letters: PORTS, not HOME), or a start of one or one's start (RATE_LIMIT, HOLD_SECONDS_MAX);
 * null for a setting, or for a name like none (HOME, PATH).
 */
export function resemblance(name: string): SettingName | null {
  if (KNOWN.has(name)) return null;
  const upper = name.toUpperCase();
  if (KNOWN.has(upper)) return upper as SettingName; // hold_seconds: the environment's names are case-sensitive
  for (const setting of SETTING_NAMES) {
    const prefix = upper.length >= 6 && (setting.startsWith(upper) || upper.startsWith(`${setting}_`));
    if (prefix || withinEdits(upper, setting, upper.length < 6 ? 1 : 2)) return setting;
  }
  return null;
}

/** Levenshtein distance ≤ `edits`, one row at a time. */
function withinEdits(a: string, b: string, edits: number): boolean {
  if (Math.abs(a.length - b.length) > edits) return false;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]! <= edits;
}

/**
 * The `env` given to createGateway, once it holds no name that looks like a setting but is none (resemblance):
 * that rejects with ConfigError. A name with the process environment's own value was spread in from it
 * (`{ ...process.env }`: HOME is two edits from HOST) and is left alone.
 */
export function checkedSettings(env: Readonly<Record<string, string | undefined>> = {}): Readonly<Record<string, string | undefined>> {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === process.env[name]) continue;
    const setting = resemblance(name);
    if (setting) throw new ConfigError(name, `is not a setting the gateway reads; did you mean ${setting}? (README, Configuration)`);
  }
  return env;
}
