/**
 * VAULT_KEY, the 32 bytes that encrypt card data at rest (docs/running.md), and the keys it replaced
 * (VAULT_PREVIOUS_KEYS, docs/operations.md#rotating-vault_key). When VAULT_KEY is unset the key is generated once
 * into `<dataDir>/vault.key` (mode 0600) and reused; with an in-memory database (no data directory) it lives only as
 * long as the process, like the data it protects.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64Key, type Config } from './config.ts';

/** The key that seals, and the older keys that only open what was sealed before a rotation finished. */
export interface VaultKeys {
  current: Buffer;
  previous: readonly Buffer[];
}

export function loadVaultKey(config: Pick<Config, 'vaultKey' | 'vaultPreviousKeys' | 'dataDir'>): VaultKeys {
  return { current: currentKey(config), previous: config.vaultPreviousKeys };
}

function currentKey(config: Pick<Config, 'vaultKey' | 'dataDir'>): Buffer {
  if (config.vaultKey) return config.vaultKey;
  if (!config.dataDir) return randomBytes(32);
  const path = join(config.dataDir, 'vault.key');
  if (existsSync(path)) {
    const key = base64Key(readFileSync(path, 'utf8').trim());
    if (!key) throw new Error(`${path} must hold 32 bytes, base64-encoded`);
    return key;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  // `wx`: two processes starting at once cannot both write one; the loser reads the winner's key.
  try {
    writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return currentKey(config);
    throw error;
  }
  return key;
}
