/**
 * The vault's cryptography (docs/platform.md#card-data-at-rest): card data sealed with AES-256-GCM under VAULT_KEY, and a keyed hash (HMAC)
 * of the card number so that card update finds every token of a card without decrypting any. Two subkeys are
 * derived from VAULT_KEY with HKDF, so the sealing key is never the hashing key.
 * The key itself comes from src/kernel/vault-key.ts.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export interface VaultCrypto {
  /** `v1.` + base64url(iv ‖ tag ‖ ciphertext). */
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Hex HMAC-SHA256 of a card number: equal numbers, equal fingerprints; nothing else is learned from it. */
  fingerprint(cardNumber: string): string;
}

export function createVaultCrypto(masterKey: Buffer): VaultCrypto {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), label, 32));
  const sealKey = derive('sleeve-vault seal v1');
  const hashKey = derive('sleeve-vault fingerprint v1');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return 'v1.' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown vault format');
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    fingerprint: (cardNumber) => createHmac('sha256', hashKey).update(cardNumber).digest('hex'),
  };
}
