/**
 * Credentials a person chose that can be found by trying (docs/running.md#credentials). The staff token, the
 * metrics token and the bootstrap site's API key are each compared in constant time against their hash, but
 * anyone who can reach the service may send guesses as fast as it answers: an outside security review tried about
 * 1,400 staff tokens a second from one client, and the README's own example was `ADMIN_TOKEN=change-me`.
 *
 * Guesses are not throttled, on purpose: a limit on failures per address must either refuse every staff request
 * from an address over it, unchecked (and at a venue, where staff share the attendees' one public address, any
 * attendee with a loop would lock staff out for the event), or keep checking (and then "refused" against "accepted"
 * answers the guess as fast as before). A token too long to guess is the defence: the ones generated are 256 random
 * bits. So a chosen one shorter than GUESSABLE_BELOW characters stops start-up where NODE_ENV=production, and
 * elsewhere (a laptop, a test) is named in a warning at start. Never its value, in either.
 */
import { ConfigError, type Env } from './config-values.ts';

/** 24 characters of base64 are 144 bits; `openssl rand -base64 32` gives 44. */
export const GUESSABLE_BELOW = 24;

const CHECKED = ['ADMIN_TOKEN', 'METRICS_TOKEN', 'VENDOR_API_KEY'] as const;

/**
 * The names of the variables among CHECKED set to a value shorter than GUESSABLE_BELOW characters (after trimming,
 * as the configuration reads them). Throws ConfigError for the first one when NODE_ENV is production.
 */
export function guessableCredentials(env: Env): string[] {
  const guessable = CHECKED.filter((name) => {
    const value = env[name]?.trim();
    return !!value && [...value].length < GUESSABLE_BELOW;
  });
  if (guessable.length > 0 && env.NODE_ENV?.trim() === 'production') {
    const name = guessable[0]!;
    throw new ConfigError(name, `is ${[...env[name]!.trim()].length} characters: anyone who reaches the service can try values as fast as it answers, so in production it must be at least ${GUESSABLE_BELOW}. Make one with: openssl rand -base64 32`);
  }
  return guessable;
}
