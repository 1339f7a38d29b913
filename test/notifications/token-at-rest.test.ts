/**
 * Vault tokens in `/token-updated` notifications (issue 14, defect 8; docs/notifications.md#secrets-in-the-outbox):
 * the outbox keeps what it must send sealed under the vault key, so neither its rows nor the SQLite file hold a
 * token in the clear; the merchant still receives the real token, signed over the exact bytes sent; staff see
 * the token masked, in the body and in `subject`.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { NETWORK_TOKEN_DELAY_MS } from '../../src/payments/network-token-service.ts';
import { standardWebhooksSecret } from '../../src/notifications/signing.ts';
import { createManualClock } from '../../src/kernel/clock.ts';
import { card, CARDS, siteCalls } from '../payments/support.ts';
import { backendEnv } from '../support/databases.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';
import { secretsInDatabaseFiles } from '../support/database-files.ts';
import { tempDir } from '../support/temp-dir.ts';
import { listNotifications, notifyingGateway, SIGNING_KEY, turnUntil, type NotifyingGateway } from './helpers.ts';

/** A card update, then an async network token: two /token-updated, both delivered. Returns the secrets sent. */
async function tokenUpdates(t: NotifyingGateway): Promise<{ token: string; networkToken: string }> {
  const api = siteCalls(t);
  const token = await api.token(CARDS.ok);
  expect((await api.updateCard(card(CARDS.ok, { expirationMonth: 3, expirationYear: 2031 }))).status).toBe(200);
  expect((await api.upgrade({ token, networkToken: { provision: true, async: true } })).status).toBe(200);
  await t.clock.advance(NETWORK_TOKEN_DELAY_MS);
  const [update, provisioned] = await t.receiver.waitFor(2);
  await turnUntil(t, async () => (await listNotifications(t, { status: ['DELIVERED'] })).length === 2);
  // The merchant gets the real token, and the signatures verify over the exact bytes it got.
  const webhook = new Webhook(standardWebhooksSecret(SIGNING_KEY));
  for (const request of [update!, provisioned!]) {
    expect(request.path).toBe('/token-updated');
    expect(request.body.token).toBe(token);
    expect(request.headers.signature).toBe(createHmac('sha256', SIGNING_KEY).update(request.raw).digest('hex'));
    expect(webhook.verify(request.raw, request.headers as Record<string, string>)).toEqual(request.body);
  }
  const networkToken = provisioned!.body.networkToken.networkToken as string;
  expect(networkToken).toMatch(/^ntk_/u);
  expect(t.receiver.schemaErrors).toEqual([]);
  return { token, networkToken };
}

describe('/token-updated at rest', () => {
  it('keeps no token in the outbox rows, sends the real one, and shows staff a masked one', async () => {
    const t = await notifyingGateway();
    const { token, networkToken } = await tokenUpdates(t);

    const rows = await t.gateway.database.db.selectFrom('outbox_notifications').select(['body', 'subject']).where('path', '=', '/token-updated').execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const secret of [token, networkToken]) {
        expect(row.body, 'a token in an outbox body').not.toContain(secret);
        expect(row.subject ?? '', 'a token in an outbox subject').not.toContain(secret);
      }
    }

    const res = await t.gql('{ notifications(type: [TOKEN_UPDATED]) { edges { node { subject body } } } }', {}, { token: t.adminToken });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const nodes = res.data.notifications.edges.map((e: any) => e.node);
    expect(nodes).toHaveLength(2);
    const masked = `tok_…${token.slice(-4)}`;
    for (const node of nodes) {
      expect(JSON.stringify(node)).not.toContain(token);
      expect(JSON.stringify(node)).not.toContain(networkToken);
      expect(node.subject).toBe(masked);
      const body = JSON.parse(node.body);
      expect(body.token).toBe(masked);
      expect(body.source).toMatch(/^(ACCOUNT_UPDATER|NETWORK_TOKEN_PROVISIONING)$/u);
    }
    const provisioned = nodes.map((n: any) => JSON.parse(n.body)).find((b: any) => b.networkToken);
    expect(provisioned.networkToken.networkToken).toBe(`ntk_…${networkToken.slice(-4)}`);
  });

  it('leaves no vault token or network token in the SQLite file', async () => {
    const dir = tempDir();
    const t = await notifyingGateway({ DATABASE_URL: `file:${join(dir, 'sleeve.db')}` });
    const { token, networkToken } = await tokenUpdates(t);
    await t.gateway.dispose();
    // The vault seals the network token too (docs/platform.md#upgrade-and-network-tokens), not only the outbox.
    expect(secretsInDatabaseFiles(dir, [token, networkToken])).toEqual([]);
  });

  it('seals a body queued in the clear before this change at the next start, and still sends the real token', async () => {
    const backend = backendEnv();
    afterThisTest(() => backend.cleanup());
    const env = { DATABASE_URL: `file:${join(tempDir(), 'legacy.db')}`, ...backend.env, MERCHANT_SIGNING_KEY: SIGNING_KEY };
    const before = await testGateway({ clock: createManualClock(Date.now()), env });
    const token = `tok_${'L'.repeat(20)}legacy`;
    const body = { token, card: { bin: '42424242', lastFourDigits: '4242', expiration: '0331', state: 'ACTIVE' }, source: 'ACCOUNT_UPDATER', updatedFields: { expirationMonth: '3' }, timestamp: String(before.clock.now()) };
    // A row as the outbox wrote it before issue 14: body and subject in the clear.
    await before.gateway.database.db
      .insertInto('outbox_notifications')
      .values({ id: 'msg_legacy', path: '/token-updated', body: JSON.stringify(body), status: 'PENDING', subject: token, attempt_count: 0, next_attempt_at: before.clock.now(), lease_owner: null, lease_until: null, created_at: before.clock.now(), updated_at: before.clock.now(), delivered_at: null, last_error: null })
      .execute();
    await before.gateway.dispose();

    const receiver = await startReceiver();
    const after = await testGateway({ clock: createManualClock(before.clock.now()), env: { ...env, MERCHANT_ENDPOINT: receiver.url } });
    const [request] = await receiver.waitFor(1);
    expect(request!.raw).toBe(JSON.stringify(body)); // the exact bytes queued, opened just before signing
    expect(request!.headers.signature).toBe(createHmac('sha256', SIGNING_KEY).update(request!.raw).digest('hex'));
    const row = await after.gateway.database.db.selectFrom('outbox_notifications').select(['body', 'subject']).where('id', '=', 'msg_legacy').executeTakeFirstOrThrow();
    expect(row.body).not.toContain(token);
    expect(row.subject).toBe('tok_…gacy');
  });
});
