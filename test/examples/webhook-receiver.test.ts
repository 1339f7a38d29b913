/**
 * The README's receiver (examples/webhook-receiver.mjs, shown there verbatim) run as it is, with plain `node`, at a
 * merchant endpoint that has just rotated its secret while the receiver still holds the old one: the overlap README
 * promises. The old sample compared `signature` as one hex value, and node stops decoding hex at the first space, so
 * during a rotation it refused every `/token-updated` (an outside merchant review, 2026-12-04).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { card, CARDS } from '../payments/support.ts';
import { afterThisTest } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { deliveriesOf, hooks, merchantSite, webhookGateway } from '../webhooks/support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = resolve(ROOT, 'examples/webhook-receiver.mjs');

/** The example, started with `secret`; its output lines as they come. */
async function startExample(secret: string): Promise<{ lines: string[]; url: string }> {
  const child = spawn(process.execPath, [EXAMPLE], { cwd: ROOT, env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' } });
  afterThisTest(async () => {
    child.kill();
  });
  const lines: string[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
  });
  const listening = await eventually(() => lines.find((line) => line.startsWith('listening on ')));
  return { lines, url: `http://127.0.0.1:${listening.slice('listening on '.length)}/hooks` };
}

describe("the README's webhook receiver", () => {
  it('is shown in the README verbatim', () => {
    expect(readFileSync(resolve(ROOT, 'README.md'), 'utf8')).toContain(readFileSync(EXAMPLE, 'utf8').trim());
  });

  it("accepts a /token-updated signed with the new and the old secret while it holds the old one, once per webhook-id, and refuses a forgery", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const created = await hooks(t, site, 'POST', '', { url: 'http://127.0.0.1:9/hooks', eventTypes: ['token-updated'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpointId = created.body.id as string;
    const receiver = await startExample(created.body.secret as string);
    expect((await hooks(t, site, 'PATCH', `/${endpointId}`, { url: receiver.url })).status).toBe(200);
    expect((await hooks(t, site, 'POST', `/${endpointId}/rotate-secret`)).status).toBe(200);

    expect((await t.rest('POST', '/v1/tokenization/tokenize', card(CARDS.ok), site.auth)).status).toBe(200);
    expect((await t.rest('POST', '/v1/account-updater/card/update', card(CARDS.ok, { expirationMonth: 4, expirationYear: 2032 }), site.auth)).status).toBe(200);
    const [delivered] = await eventually(async () => {
      const list = await deliveriesOf(t, site, endpointId, 'DELIVERED');
      return list.length === 1 ? list : null;
    });
    expect(receiver.lines.filter((line) => line.startsWith('handled /hooks/token-updated '))).toHaveLength(1);

    // A redelivery is the same webhook-id: delivered again, handled once.
    expect((await hooks(t, site, 'POST', `/${endpointId}/deliveries/${delivered!.id}/redeliver`)).status).toBe(202);
    await eventually(async () => ((await deliveriesOf(t, site, endpointId, 'DELIVERED'))[0]?.attempts.length === 2 ? true : null));
    expect(receiver.lines.filter((line) => line.startsWith('handled '))).toHaveLength(1);

    const forged = await fetch(`${receiver.url}/token-updated`, { method: 'POST', body: '{"token":"x"}', headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
    expect(forged.status).toBe(400);
  });
});
