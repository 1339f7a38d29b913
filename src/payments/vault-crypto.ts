/**
 * The vault's cryptography (docs/platform.md#card-data-at-rest): card data sealed with AES-256-GCM under VAULT_KEY, and a keyed hash (HMAC)
 * of the card number so that card update finds every token of a card without decrypting any. Each key's subkeys are
 * derived with HKDF, so the sealing key is never the hashing key, and neither is the key id.
 * The keys themselves come from src/kernel/vault-key.ts.
 *
 * Rotation (docs/operations.md#rotating-vault_key): a sealed value names the key that sealed it, `v2.<key id>.…`. The
 * id is 6 bytes of HKDF output under its own label: it tells keys apart and reveals nothing of them. The current key
 * seals and hashes; previous keys (VAULT_PREVIOUS_KEYS) only open, and hash for lookups, until scripts/vault-rotate.ts
 * has re-sealed and re-hashed every value under the current key. A value sealed before key ids (`v1.…`) names no
 * key: it is opened by trying each, current first, since AES-GCM's tag refuses a wrong key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { freshRandomBytes } from '../kernel/tokens.ts';
import type { VaultKeys } from '../kernel/vault-key.ts';
import { ConfigError } from '../kernel/config-values.ts';

export interface VaultCrypto {
  /** The current key's id: what `seal` writes into each value. */
  readonly keyId: string;
  /** Every known key's id, current first. */
  readonly keyIds: readonly string[];
  /** How every value sealed under the current key starts: `v2.<key id>.` (a query finds the others with it). */
  readonly currentPrefix: string;
  /** `v2.<key id>.` + base64url(iv ‖ tag ‖ ciphertext), under the current key, the prefix authenticated too. */
  seal(plaintext: string): string;
  /**
   * Opens a value sealed under any known key; a VaultKeyError when none of them sealed it, a VaultDamagedError when
   * one did but the value was altered since.
   */
  open(sealed: string): string;
  /** Hex HMAC-SHA256 of a card number under the current key: equal numbers, equal fingerprints; nothing else is learned. */
  fingerprint(cardNumber: string): string;
  /** The fingerprint under every known key, current first: what a lookup matches while a rotation is under way. */
  fingerprints(cardNumber: string): string[];
  /**
   * Base64url HMAC-SHA256 of a request (an Idempotency-Key's body, which may hold a card number and CVC) under every known
   * key, current first, with a subkey of its own: a copy of the database cannot test guesses of the card against it.
   */
  requestDigests(text: string): string[];
}

/**
 * A value no known key opens: it names a key id this process was not given, or it is a `v1.` value (which names no
 * key) that none of them opens, whether sealed under another key or damaged since: the two look alike.
 */
export class VaultKeyError extends Error {
  override readonly name = 'VaultKeyError';
  constructor(readonly keyId: string | null) {
    super(
      keyId
        ? `sealed under vault key id ${keyId}, which is neither VAULT_KEY nor in VAULT_PREVIOUS_KEYS`
        : 'sealed before key ids, and neither VAULT_KEY nor any of VAULT_PREVIOUS_KEYS opens it',
    );
  }
}

/**
 * A value that names a key this process has, yet does not open under it: altered or damaged since it was sealed (GCM's
 * tag refuses it). The key is the right one; the value is not, and no key would open it.
 */
export class VaultDamagedError extends Error {
  override readonly name = 'VaultDamagedError';
  constructor(readonly keyId: string) {
    super(`sealed under vault key id ${keyId}, which is known, but does not authenticate under it: altered or damaged since`);
  }
}

/**
 * At start: `open(sealed)` must succeed under this start's keys, else a ConfigError naming VAULT_KEY that says what
 * was sealed (`what`, "the vault's card data") and under which key id. A start that opens none of what is stored
 * said ready and failed every request that needed it.
 */
export function refuseUnopenable(sealed: string | null, open: (sealed: string) => unknown, what: string, keyId: string): void {
  if (sealed === null) return;
  try {
    open(sealed);
  } catch (error) {
    // A damaged value names a key this start has: the key is right, which is all this check is for.
    if (error instanceof VaultDamagedError) return;
    if (!(error instanceof VaultKeyError)) throw error;
    throw new ConfigError('VAULT_KEY', `${what} ${error.message} (this start's key id ${keyId}): start with the key that sealed it, or list it in VAULT_PREVIOUS_KEYS (docs/operations.md#rotating-vault_key).`);
  }
}

interface DerivedKey {
  id: string;
  sealKey: Buffer;
  hashKey: Buffer;
  requestKey: Buffer;
}

function derive(master: Buffer): DerivedKey {
  const hkdf = (label: string, length: number) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, length));
  return { id: hkdf('sleeve-vault key id v1', 6).toString('hex'), sealKey: hkdf('sleeve-vault seal v1', 32), hashKey: hkdf('sleeve-vault fingerprint v1', 32), requestKey: hkdf('sleeve-vault request digest v1', 32) };
}

/** The id a key's values carry (safe to print and log; it is not the key). */
export const vaultKeyId = (key: Buffer): string => derive(key).id;

/** The key id a sealed value names; null for a `v1.` value, which names none. */
export function sealedKeyId(sealed: string): string | null {
  const match = /^v2\.([0-9a-f]{12})\./u.exec(sealed);
  if (match) return match[1]!;
  if (sealed.startsWith('v1.')) return null;
  throw new Error('unknown vault format');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function decrypt(key: Buffer, body: string, aad: string | null): string {
  const raw = Buffer.from(body, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
  // authTagLength pinned: otherwise GCM would accept a truncated tag.
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** `keys` may be one key (nothing to rotate from) or VAULT_KEY with VAULT_PREVIOUS_KEYS. */
export function createVaultCrypto(keys: VaultKeys | Buffer): VaultCrypto {
  const given = Buffer.isBuffer(keys) ? [keys] : [keys.current, ...keys.previous];
  // A key listed twice (VAULT_KEY also among the previous ones) is kept once.
  const known = given.map(derive).filter((key, index, all) => all.findIndex((other) => other.id === key.id) === index);
  const current = known[0]!;
  const prefixOf = (key: DerivedKey) => `v2.${key.id}.`;
  const hash = (key: DerivedKey, cardNumber: string) => createHmac('sha256', key.hashKey).update(cardNumber).digest('hex');

  return {
    keyId: current.id,
    keyIds: known.map((key) => key.id),
    currentPrefix: prefixOf(current),
    seal(plaintext) {
      const iv = freshRandomBytes(IV_BYTES);
      const prefix = prefixOf(current);
      const cipher = createCipheriv('aes-256-gcm', current.sealKey, iv, { authTagLength: TAG_BYTES });
      // The prefix is additional data: a value moved under another key id fails to open instead of being misread.
      cipher.setAAD(Buffer.from(prefix.slice(0, -1), 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      const id = sealedKeyId(sealed);
      if (id !== null) {
        const key = known.find((candidate) => candidate.id === id);
        if (!key) throw new VaultKeyError(id);
        const prefix = prefixOf(key);
        try {
          return decrypt(key.sealKey, sealed.slice(prefix.length), prefix.slice(0, -1));
        } catch {
          throw new VaultDamagedError(id);
        }
      }
      for (const key of known) {
        try {
          return decrypt(key.sealKey, sealed.slice('v1.'.length), null);
        } catch {
          // sealed under another key: try the next
        }
      }
      throw new VaultKeyError(null);
    },
    fingerprint: (cardNumber) => hash(current, cardNumber),
    fingerprints: (cardNumber) => known.map((key) => hash(key, cardNumber)),
    requestDigests: (text) => known.map((key) => createHmac('sha256', key.requestKey).update(text).digest('base64url')),
  };
}
