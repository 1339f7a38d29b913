/**
 * One duration written as people write them (`90s`, `30m`, `12h`, `5d`; a bare number is seconds), for settings
 * such as ENDPOINT_DISABLE_AFTER (docs/merchant-webhooks.md#disabling-and-recovery) and each step of NOTIFY_RETRY_SCHEDULE. Pure: config.ts turns a null
 * into its start-up refusal.
 */
const UNITS: Record<string, number> = { '': 1000, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or null when `raw` is not one duration (zero allowed: a retry schedule's first step). */
export function durationMs(raw: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/u.exec(raw.trim());
  if (!match) return null;
  const ms = Math.round(Number(match[1]) * UNITS[match[2] ?? '']!);
  return Number.isSafeInteger(ms) ? ms : null;
}

/** Milliseconds, or null when `raw` is not one duration greater than zero. */
export function parseDuration(raw: string): number | null {
  const ms = durationMs(raw);
  return ms !== null && ms > 0 ? ms : null;
}
