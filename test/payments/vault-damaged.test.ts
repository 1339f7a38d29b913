/**
 * A sealed value altered since it was sealed (docs/operations.md#rotating-vault_key): it names a key the instance
 * has, yet GCM's tag refuses it. That is told from a missing key everywhere it shows. A request that needs it logs
 * what happened, with the key id. A start goes on, since its key is the right one. `npm run vault:rotate` counts it
 * as damaged, not as a key to add, and changes nothing. Before, all three reported GCM's "unable to authenticate data",
 * or a key they had been given as missing.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { vaultKeyId } from '../../src/payments/vault-crypto.ts';
import { startProcess } from '../support/process.ts';
import { CARDS, paymentsGateway, siteCalls } from './support.ts';
import { b64, keyEnv, rotate, sharedDatabase } from './vault-rotate-process.ts';

const [A, B] = [randomBytes(32), randomBytes(32)];

describe('a vault value altered since it was sealed', () => {
  it('is logged as such by a request, does not stop a start, and is counted apart by the rotation, which changes nothing', async () => {
    const url = sharedDatabase();
    const lines: string[] = [];
    const t = await paymentsGateway({ env: { DATABASE_URL: url, VAULT_KEY: b64(A) }, logger: createLogger('debug', (line) => lines.push(line)) });
    const token = await siteCalls(t).token(CARDS.ok);
    const db = t.gateway.database.db;
    const row = await db.selectFrom('vault_tokens').select(['token_hash', 'sealed']).executeTakeFirstOrThrow();
    // One bit of the ciphertext flipped: the key id still names A, and GCM's tag refuses the value. (Changing the last
    // base64url character instead flipped only padding bits when the length left some: the value still opened.)
    const prefix = row.sealed.slice(0, row.sealed.lastIndexOf('.') + 1);
    const body = Buffer.from(row.sealed.slice(prefix.length), 'base64url');
    body[body.length - 1]! ^= 1;
    await db.updateTable('vault_tokens').set({ sealed: prefix + body.toString('base64url') }).where('token_hash', '=', row.token_hash).execute();
    const stored = () => db.selectFrom('vault_tokens').selectAll().orderBy('token_hash').execute();
    const snapshot = await stored();

    // Before, the log said "unexpected error" with GCM's text.
    const detokenized = await siteCalls(t).detokenize({ token });
    expect([detokenized.status, detokenized.body]).toEqual([500, { message: 'Something went wrong on our side. Please try again.' }]);
    expect(lines.filter((line) => line.includes('does not authenticate under the vault key that sealed it'))).toEqual([expect.stringContaining(vaultKeyId(A))]);

    // Before, the start died on GCM's error, though its key was the right one.
    const started = await startProcess({ DATABASE_URL: url, VAULT_KEY: b64(A) });
    expect((await fetch(`${started.url}/ready`)).status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);

    // Before, the rotation said no key given opened it, and asked for the key it had been given.
    const refused = rotate(url, keyEnv(B, [A]));
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(`do not authenticate under it (key id: count — ${vaultKeyId(A)}: 1)`);
    expect(refused.output()).not.toContain('no key given opens');
    expect(refused.output()).toContain('Nothing was changed.');
    for (const secret of [b64(A), b64(B), CARDS.ok]) expect(refused.output()).not.toContain(secret);
    expect(await stored()).toEqual(snapshot);
  });
});
