/**
 * Secrets in the outbox (issue 14, docs/notifications.md#secrets-in-the-outbox). A `/token-updated` body carries a
 * vault token (and a network token) that the merchant must receive in the clear, yet tokens are kept at rest only
 * as a hash (docs/platform.md#card-data-at-rest). So such a body is stored as an envelope:
 *
 *   {"$sealed":"v1.…","$masked":{…}}
 *
 * `$sealed` is the exact body, sealed with AES-256-GCM under VAULT_KEY (the vault's own createVaultCrypto), opened
 * by the dispatcher just before it signs and sends (so the bytes signed are the bytes queued); `$masked` is the body
 * with every token masked (`tok_…abcd`), which is all staff ever see. Bodies without secrets are stored as they are.
 *
 * The key: queueNotification runs inside other areas' transactions and receives no key, so the notifications area
 * registers VAULT_KEY (with VAULT_PREVIOUS_KEYS) here once per gateway (notification-service.ts). A process serves
 * one gateway, with one key; tests build several gateways in one process, each with a key of its own when none is
 * configured, so every key registered is kept: the newest VAULT_KEY seals, and any of them opens (the sealed value
 * names its key, vault-crypto.ts). scripts/vault-rotate.ts re-seals stored bodies under a new key (resealBody).
 */
import type { VaultKeys } from '../kernel/vault-key.ts';
import { createVaultCrypto, vaultKeyId, type VaultCrypto } from '../payments/vault-crypto.ts';
import type { TokenUpdatedBody } from './bodies.ts';

/** How every sealed body starts (JSON.stringify keeps key order), so a query can find the ones not yet sealed. */
export const SEALED_PREFIX = '{"$sealed":';

interface Envelope {
  $sealed: string;
  $masked: unknown;
}

/** The paths whose bodies hold secrets, each with the body as staff may see it. */
const MASKERS: Record<string, (body: unknown) => unknown> = {
  '/token-updated': (body) => {
    const token = body as TokenUpdatedBody;
    return {
      ...token,
      token: maskToken(token.token),
      ...(token.networkToken ? { networkToken: { ...token.networkToken, networkToken: maskToken(token.networkToken.networkToken) } } : {}),
    };
  },
};

export const SECRET_PATHS: readonly string[] = Object.keys(MASKERS);

/** Newest VAULT_KEY first; each known by its key id, so the same key registered again is not kept twice. */
const keyring: Array<{ id: string; key: Buffer }> = [];
let crypto: VaultCrypto | null = null;

/** Registers VAULT_KEY for sealing and opening outbox bodies, and its previous keys for opening only. */
export function useVaultKey(keys: VaultKeys): void {
  const add = (key: Buffer, seals: boolean) => {
    const id = vaultKeyId(key);
    const at = keyring.findIndex((entry) => entry.id === id);
    if (at >= 0 && !seals) return;
    if (at >= 0) keyring.splice(at, 1);
    if (seals) keyring.unshift({ id, key });
    else keyring.push({ id, key });
  };
  for (const key of keys.previous) add(key, false);
  add(keys.current, true);
  crypto = createVaultCrypto({ current: keyring[0]!.key, previous: keyring.slice(1).map((entry) => entry.key) });
}

/** `tok_…abcd`: the prefix and the last four characters, never enough to use or guess the token. */
export function maskToken(value: string): string {
  if (value.includes('…')) return value; // already masked
  const prefix = /^[a-z]{2,5}_/u.exec(value)?.[0] ?? '';
  const rest = value.slice(prefix.length);
  return rest.length > 8 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}

const isSealed = (stored: string) => stored.startsWith(SEALED_PREFIX);

/** What the outbox stores for `json` at `path`: sealed with a masked copy when the path carries secrets. */
export function bodyAtRest(path: string, json: string): string {
  const mask = MASKERS[path];
  if (!mask) return json;
  if (!crypto) throw new Error('no VAULT_KEY registered for the outbox (the notification service registers it)');
  const envelope: Envelope = { $sealed: crypto.seal(json), $masked: mask(JSON.parse(json)) };
  return JSON.stringify(envelope);
}

/** The subject as stored: a token subject is masked like the body. */
export function subjectAtRest(path: string, subject: string | null): string | null {
  return subject !== null && MASKERS[path] ? maskToken(subject) : subject;
}

/** The exact body to sign and send; a VaultKeyError when no registered key opens it (another VAULT_KEY sealed it). */
export function bodyToSend(stored: string): string {
  const sealed = sealedValueOf(stored);
  if (sealed === null) return stored;
  if (!crypto) throw new Error('no VAULT_KEY registered for the outbox (the notification service registers it)');
  return crypto.open(sealed);
}

/**
 * The `$sealed` value of a stored body; null for a body kept in the clear. Read without parsing the masked copy
 * after it (once per delivery): a sealed value is a version, a key id and base64url joined by dots
 * (vault-crypto.ts), with nothing JSON escapes.
 */
export function sealedValueOf(stored: string): string | null {
  return isSealed(stored) ? stored.slice(SEALED_PREFIX.length + 1, stored.indexOf('"', SEALED_PREFIX.length + 1)) : null;
}

/** How a body sealed under `under`'s current key starts, so a query finds the bodies a rotation still has to re-seal. */
export const currentBodyPrefix = (under: VaultCrypto): string => `${SEALED_PREFIX}${JSON.stringify(under.currentPrefix).slice(0, -1)}`;

/**
 * A stored body re-sealed under `under`'s current key, the masked copy kept as it is; null when there is nothing to
 * do (kept in the clear, or sealed under that key already). The exact bytes sealed are kept, so the body later
 * signed and sent is the one queued.
 */
export function resealBody(stored: string, under: VaultCrypto): string | null {
  const sealed = sealedValueOf(stored);
  if (sealed === null || sealed.startsWith(under.currentPrefix)) return null;
  const envelope = JSON.parse(stored) as Envelope;
  return JSON.stringify({ $sealed: under.seal(under.open(sealed)), $masked: envelope.$masked } satisfies Envelope);
}

/** The body as staff see it: masked. A body queued in the clear before issue 14 is masked here too. */
export function bodyForStaff(path: string, stored: string): string {
  if (isSealed(stored)) return JSON.stringify((JSON.parse(stored) as Envelope).$masked);
  const mask = MASKERS[path];
  return mask ? JSON.stringify(mask(JSON.parse(stored))) : stored;
}

/**
 * An endpoint's `whsec_…` secret sealed with the same registered VAULT_KEY (docs/merchant-webhooks.md#endpoints), so
 * the endpoint service and every dispatcher of this gateway open what any of them sealed.
 */
export function sealSecret(secret: string): string {
  if (!crypto) throw new Error('no VAULT_KEY registered for the outbox (the notification service registers it)');
  return crypto.seal(secret);
}

export function openSecret(sealed: string): string {
  if (!crypto) throw new Error('no VAULT_KEY registered for the outbox (the notification service registers it)');
  return crypto.open(sealed);
}

/** The id of the key that seals now (a start's refusal names it). */
export function sealingKeyId(): string {
  if (!crypto) throw new Error('no VAULT_KEY registered for the outbox (the notification service registers it)');
  return crypto.keyId;
}
