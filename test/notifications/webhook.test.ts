/**
 * The processor's verification webhook (document 2 §4, docs/notifications.md#processor-verification-webhook): the published test vector, and 401 for an
 * unknown site, an unknown account and a challenge that is not 20–32 lowercase hex characters.
 */
import { describe, expect, it } from 'vitest';
import { challengeResponse } from '../../src/sites/challenge-service.ts';
import { decide, profileAccess } from '../platform/support.ts';
import { testGateway } from '../support/gateway.ts';
import { gatewayOver } from '../support/graphql-transports.ts';

const VECTOR = { challenge: '20f9f8ed05f77439fe955c977e4c8a53', publicKey: 'integration_public_key', privateKey: 'integration_private_key' };
const EXPECTED = 'integration_public_key|d9b899556c966b3f06945ec21311865d35df3ce4';

describe('GET /webhooks/processor/{siteId}/{accountId}', () => {
  it('matches the scheme’s published test vector', () => {
    expect(challengeResponse(VECTOR.challenge, VECTOR.publicKey, VECTOR.privateKey)).toBe(EXPECTED);
  });

  it('answers a known site and account with PUBLIC_KEY|HEX as text/plain, and 401 for anything else', async () => {
    const t = await testGateway({ env: { PROCESSOR_PUBLIC_KEY: VECTOR.publicKey, PROCESSOR_PRIVATE_KEY: VECTOR.privateKey } });
    await t.createOrder({ email: 'Buyer@Example.com' });
    const path = (site: string, account: string, challenge: string) =>
      `/webhooks/processor/${encodeURIComponent(site)}/${encodeURIComponent(account)}?bt_challenge=${encodeURIComponent(challenge)}`;

    const ok = await t.rest('GET', path(t.siteId, 'buyer@example.com', VECTOR.challenge));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/u);
    expect(ok.body).toBe(EXPECTED);

    for (const [site, account, challenge] of [
      ['site_unknown', 'buyer@example.com', VECTOR.challenge],
      [t.siteId, 'nobody@example.com', VECTOR.challenge],
      [t.siteId, 'buyer@example.com', 'not-hex-at-all-zzzzzzzzzz'],
      [t.siteId, 'buyer@example.com', VECTOR.challenge.toUpperCase()],
      [t.siteId, 'buyer@example.com', 'abc123'],
    ]) {
      const res = await t.rest('GET', path(site!, account!, challenge!));
      expect(res.status, `${site} ${account} ${challenge}`).toBe(401);
    }
    expect((await t.rest('GET', `/webhooks/processor/${t.siteId}/buyer@example.com`)).status).toBe(401);
    // Two challenges, even the same one twice: not "a challenge", so 401 (CONTRACT: anything else).
    expect((await t.rest('GET', `${path(t.siteId, 'buyer@example.com', VECTOR.challenge)}&bt_challenge=${VECTOR.challenge}`)).status).toBe(401);

    // An account the decision platform holds (here: from a profile access decision) is known too.
    expect((await t.rest('GET', path(t.siteId, 'acct-42', VECTOR.challenge))).status).toBe(401);
    await decide(t, 'profile-access', 'ev-42', profileAccess({ accountId: 'acct-42' }));
    expect((await t.rest('GET', path(t.siteId, 'acct-42', VECTOR.challenge))).body).toBe(EXPECTED);
  });

  it('bounds probing: an address asks at most a subject\'s write budget a window, then 429 with Retry-After', async () => {
    // Unauthenticated, the answer says whether an account (for the bootstrap site: a sleeve order's email) exists.
    const t = await gatewayOver('node', { env: { RATE_LIMIT_SUBJECT_WRITE: '3', TRUST_PROXY: 'loopback' } });
    await t.createOrder({ email: 'buyer@example.com' });
    const probe = (email: string, address: string) =>
      t.rest('GET', `/webhooks/processor/${t.siteId}/${encodeURIComponent(email)}?bt_challenge=${VECTOR.challenge}`, undefined, { 'x-forwarded-for': address });
    const statuses = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'buyer@example.com']) statuses.push((await probe(email, '198.51.100.7')).status);
    expect(statuses).toEqual([401, 401, 401, 429]); // the fourth guess is not answered, though it names a real order
    const refused = await probe('buyer@example.com', '198.51.100.7');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/u);
    expect((await probe('buyer@example.com', '203.0.113.9')).status).toBe(200); // another address, its own count
  });
});
