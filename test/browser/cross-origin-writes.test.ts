/**
 * No cross-origin writes with remembered credentials (docs/edge.md#no-cross-site-writes), in headless Chromium
 * against a real gateway process: the merchant's browser has once been given the site's Basic credentials for the
 * gateway's host (here by a URL carrying them, as a login prompt would), and a page on another port of the same
 * host (a venue laptop, a sibling subdomain: the same site, so Chromium attaches them) sends bodyless and typeless
 * POSTs with `mode: 'no-cors'`, which need no preflight. Each is refused 415 and nothing changes: no endpoint is
 * created, no secret rotated. The gateway's own pages and a legacy client's typeless JSON still write.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { CHROMIUM_NOTE, freePort, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { startServer } from './ordering-support.ts';

const SITE = 'site-cross';
const KEY = 'key-cross-origin-writes-0123456789';
const basic = `Basic ${Buffer.from(`${SITE}:${KEY}`).toString('base64')}`;

/** A page on another port of 127.0.0.1, and what it received when the gateway delivered to it. */
async function otherPort(html: string): Promise<{ origin: string; received: string[] }> {
  const received: string[] = [];
  const port = await freePort();
  const server = createServer((req, res) => {
    if (req.method === 'POST') received.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  afterThisTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${port}`, received };
}

describe.skipIf(!hasChromium)(`POSTs from another origin with remembered Basic credentials ${CHROMIUM_NOTE}`, () => {
  it('refuses a no-cors POST with no type, a typeless Blob or text/plain, and nothing changes', async () => {
    const { base } = await startServer({ VENDOR_SITE_ID: SITE, VENDOR_API_KEY: KEY, ENDPOINT_ALLOWED_NETWORKS: 'loopback' });
    const endpoints = async () => (await (await fetch(`${base}/v1/webhooks/endpoints`, { headers: { authorization: basic } })).json()).data as Array<{ id: string; url: string }>;
    const collector = await otherPort('<!doctype html><title>collector</title>');
    const created = await fetch(`${base}/v1/webhooks/endpoints`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${collector.origin}/mine` }) });
    expect(created.status).toBe(201);
    const mine = ((await created.json()) as { id: string }).id;
    // A rotation keeps the previous secret for a while: previousSecretExpiresAt stops being null.
    const rotated = async () => ((await (await fetch(`${base}/v1/webhooks/endpoints/${mine}`, { headers: { authorization: basic } })).json()) as { previousSecretExpiresAt: string | null }).previousSecretExpiresAt !== null;

    const browser = await launchBrowser();
    const { page } = await openPage(browser);
    // The browser remembers the credentials for the gateway's host, as after answering its Basic prompt.
    await page.goto(`http://${SITE}:${KEY}@${base.slice('http://'.length)}/v1/webhooks/endpoints`);
    const attacker = await otherPort('<!doctype html><title>another port</title>');
    await page.goto(attacker.origin);
    const statuses = await page.evaluate(
      async ({ base, collector, mine }) => {
        const send = async (path: string, body?: BodyInit) => {
          // no-cors hides the answer; the gateway's record of what happened is read afterwards.
          await fetch(`${base}${path}`, { method: 'POST', mode: 'no-cors', credentials: 'include', ...(body === undefined ? {} : { body }) });
          return 'sent';
        };
        const url = JSON.stringify({ url: `${collector}/evil` });
        return [
          await send('/v1/webhooks/endpoints', new Blob([url])),
          await send('/v1/webhooks/endpoints', url),
          await send(`/v1/webhooks/endpoints/${mine}/rotate-secret`),
          await send(`/v1/webhooks/endpoints/${mine}/test`),
        ];
      },
      { base, collector: collector.origin, mine },
    );
    expect(statuses).toEqual(['sent', 'sent', 'sent', 'sent']);

    expect((await endpoints()).map((endpoint) => endpoint.url)).toEqual([`${collector.origin}/mine`]);
    expect(await rotated()).toBe(false);
    const log = await (await fetch(`${base}/v1/webhooks/endpoints/${mine}/deliveries`, { headers: { authorization: basic } })).json();
    expect(log.data).toEqual([]);
  });
});
