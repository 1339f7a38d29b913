/**
 * VAULT_KEY rotated one instance at a time (docs/operations.md#rotating-vault_key, the SRE review's finding 2): two
 * gateways on one database at once, as during a rolling restart. Phase 1 lists the new key in VAULT_PREVIOUS_KEYS
 * only, so an instance still sealing under the old key opens what an instance already switched seals under the new
 * one. An instance that lacks the key outright (the old, one-phase procedure) answers 503 `unavailable` with
 * Retry-After, since another instance may open the value, rather than 500 `internal`.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { vaultKeyId } from '../../src/payments/vault-crypto.ts';
import type { TestGateway } from '../support/gateway.ts';
import { CARDS, paymentsGateway, siteCalls } from './support.ts';
import { b64, sharedDatabase } from './vault-rotate-process.ts';

const [A, B] = [randomBytes(32), randomBytes(32)];

const gatewayUnder = (url: string, current: Buffer, previous: Buffer[] = []) =>
  paymentsGateway({ env: { DATABASE_URL: url, VAULT_KEY: b64(current), ...(previous.length ? { VAULT_PREVIOUS_KEYS: previous.map(b64).join(',') } : {}) } });

/** The key id each stored card token was sealed under, sorted. */
async function sealedUnder(t: TestGateway): Promise<string[]> {
  const rows = await t.gateway.database.db.selectFrom('vault_tokens').select('sealed').execute();
  return rows.map((row) => row.sealed.split('.')[1]!).sort();
}

describe('VAULT_KEY rotated one instance at a time', () => {
  it('opens a card sealed under B on an instance with VAULT_KEY=A and VAULT_PREVIOUS_KEYS=B, which still seals under A', async () => {
    const url = sharedDatabase();
    // Phase 1 of the procedure: the new key B only opens; everything is still sealed under A.
    const opening = await gatewayUnder(url, A, [B]);
    const early = await siteCalls(opening).token(CARDS.ok, { tokenAliases: { shopper: 'early' } });
    expect(await sealedUnder(opening)).toEqual([vaultKeyId(A)]);
    // Phase 2, while the phase-1 instance still serves: the first instance switched seals under B.
    const switched = await gatewayUnder(url, B, [A]);
    const late = await siteCalls(switched).token(CARDS.mastercard, { tokenAliases: { shopper: 'late' } });
    expect(await sealedUnder(switched)).toEqual([vaultKeyId(A), vaultKeyId(B)].sort());

    for (const t of [opening, switched]) {
      for (const [reference, number] of [[{ token: early }, CARDS.ok], [{ token: late }, CARDS.mastercard], [{ tokenAlias: { key: 'shopper', value: 'late' } }, CARDS.mastercard]] as const) {
        const res = await siteCalls(t).detokenize(reference);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.cardNumber).toBe(number);
      }
    }
  });

  it('answers 503 with Retry-After, not 500, where this instance lacks the key that sealed a card (the one-phase roll)', async () => {
    const url = sharedDatabase();
    const old = await gatewayUnder(url, A);
    const switched = await gatewayUnder(url, B, [A]);
    const token = await siteCalls(switched).token(CARDS.ok);
    const res = await siteCalls(old).detokenize({ token });
    expect([res.status, res.headers.get('retry-after'), res.body]).toEqual([
      503,
      '1',
      { message: 'This instance cannot open the stored card data right now. Please try again.' },
    ]);
  });
});
