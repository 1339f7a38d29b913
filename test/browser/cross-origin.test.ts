/**
 * Frontends on another origin, in headless Chromium (docs/edge.md#cors, docs/edge.md#page-headers): a page served
 * from a second origin (another port, a tiny node:http server here) runs a query, a mutation, a subscription (SSE)
 * an operation over graphql-sse's single connection mode, and one carrying Apollo's and Sentry's extra headers, against a real gateway process — with CORS_ORIGINS unset, and with it listing that origin — while a third
 * origin is refused by the browser when the list is set. And a page on another origin that frames /pay gets nothing.
 */
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { CHROMIUM_NOTE, freePort, hasChromium, launchBrowser, openPage } from '../support/browser.ts';
import { startServer } from './ordering-support.ts';

/** A second origin: serves `html()` at every path. */
async function otherOrigin(html: () => string): Promise<string> {
  const port = await freePort();
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html()));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  afterThisTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${port}`;
}

/** What a script on `page` gets from the gateway: each of the three operations' result, or how the browser refused it. */
function callGateway(page: Page, gateway: string, email: string) {
  return page.evaluate(
    async ({ gateway, email }) => {
      const post = (body: unknown, accept = 'application/json') =>
        fetch(`${gateway}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
      const attempt = async (run: () => Promise<unknown>) => {
        try {
          return await run();
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      };
      const query = await attempt(async () => (await (await post({ query: '{ sleeveOptions { charLimit } }' })).json()).data.sleeveOptions.charLimit);
      const mutation = await attempt(async () => {
        const input = { email, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' };
        const answer = await (await post({ query: 'mutation($i: OrderInput!) { createOrder(input: $i) { ... on Order { status } } }', variables: { i: input } })).json();
        return answer.data.createOrder.status;
      });
      const subscription = await attempt(async () => {
        const response = await post({ query: 'subscription { sleeveOptionsChanged { charLimit } }' }, 'text/event-stream');
        const reader = response.body!.getReader();
        let text = '';
        while (!/"charLimit":\d+/u.test(text)) text += new TextDecoder().decode((await reader.read()).value);
        await reader.cancel();
        return Number(/"charLimit":(\d+)/u.exec(text)![1]);
      });
      // graphql-sse's single connection mode: PUT, a stream GET and an operation POST, each carrying the token's
      // header, so each is preflighted.
      const single = await attempt(async () => {
        const token = await (await fetch(`${gateway}/graphql`, { method: 'PUT' })).text();
        const headers = { 'x-graphql-event-stream-token': token };
        const stream = await fetch(`${gateway}/graphql`, { headers: { ...headers, accept: 'text/event-stream' } });
        const posted = await fetch(`${gateway}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ sleeveOptions { charLimit } }', extensions: { operationId: 'one' } }),
        });
        if (posted.status !== 202) return `status ${posted.status}`;
        const reader = stream.body!.getReader();
        let text = '';
        while (!text.includes('event: complete')) text += new TextDecoder().decode((await reader.read()).value);
        await reader.cancel();
        return Number(/"charLimit":(\d+)/u.exec(text)![1]);
      });
      // What Apollo Client (operation name) and Sentry's browser SDK (trace headers) add to every request.
      const traced = await attempt(async () => {
        const headers = { 'content-type': 'application/json', 'x-apollo-operation-name': 'Options', 'sentry-trace': '0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1', baggage: 'sentry-environment=event' };
        const response = await fetch(`${gateway}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: 'query Options { sleeveOptions { charLimit } }' }) });
        return (await response.json()).data.sleeveOptions.charLimit;
      });
      return { query, mutation, subscription, single, traced };
    },
    { gateway, email },
  );
}

const WORKS = { query: 20, mutation: 'AWAITING_PAYMENT', subscription: 20, single: 20, traced: 20 };
const REFUSED = { query: 'refused: TypeError', mutation: 'refused: TypeError', subscription: 'refused: TypeError', single: 'refused: TypeError', traced: 'refused: TypeError' };

describe.skipIf(!hasChromium)(`a frontend on another origin ${CHROMIUM_NOTE}`, () => {
  it('runs a query, a mutation, a subscription and a single connection stream with CORS_ORIGINS unset', { timeout: 60_000 }, async () => {
    const { base } = await startServer();
    const shop = await otherOrigin(() => '<!doctype html><title>shop</title>');
    const browser = await launchBrowser();
    const { page, pageErrors } = await openPage(browser);
    await page.goto(shop);
    expect(await callGateway(page, base, 'ada@example.com')).toEqual(WORKS);
    expect(pageErrors).toEqual([]);
  });

  it('with CORS_ORIGINS listing it: works from that origin, refused from a third', { timeout: 60_000 }, async () => {
    const page = () => '<!doctype html><title>shop</title>';
    const shop = await otherOrigin(page);
    const third = await otherOrigin(page);
    const { base, api } = await startServer({ CORS_ORIGINS: shop });
    const browser = await launchBrowser();
    const listed = await openPage(browser);
    await listed.page.goto(shop);
    expect(await callGateway(listed.page, base, 'ada@example.com')).toEqual(WORKS);
    const other = await openPage(browser);
    await other.page.goto(third);
    expect(await callGateway(other.page, base, 'eve@example.com')).toEqual(REFUSED);
    // The refused mutation never reached the gateway (its preflight failed): no order for that email.
    const orders = await api.staff('{ orders { edges { node { email } } } }');
    expect(orders.orders.edges.map((e: any) => e.node.email)).toEqual(['ada@example.com']);
  });

  it('a page on another origin that frames /pay gets nothing, while the ordering page may be framed', { timeout: 60_000 }, async () => {
    const { base, api } = await startServer();
    const order = await api.createOrder({ email: 'ada@example.com', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' });
    const payUrl = `${base}/pay/${order.orderNumber}?t=${encodeURIComponent(order.payToken)}`;
    const evil = await otherOrigin(() => `<!doctype html><title>evil</title><iframe id="pay" src="${payUrl}"></iframe><iframe id="shop" src="${base}/"></iframe><iframe id="staff" src="${base}/staff"></iframe>`);
    const browser = await launchBrowser();
    const { page } = await openPage(browser);
    await page.goto(evil, { waitUntil: 'load' });
    const frameOf = async (id: string) => (await page.locator(`#${id}`).elementHandle())!.contentFrame();
    const shopFrame = await frameOf('shop');
    await expect.poll(async () => shopFrame!.locator('#order-form').count(), { timeout: 10_000 }).toBe(1);
    for (const id of ['pay', 'staff']) {
      const frame = await frameOf(id);
      // Chromium replaces a frame refused by frame-ancestors with its own error page: none of the gateway's markup.
      const url = frame ? frame.url() : '';
      expect(url.startsWith(base), `${id} frame at ${url}`).toBe(false);
      expect(frame ? await frame.locator('main, #card-form, #sign-in').count().catch(() => 0) : 0).toBe(0);
    }
  });
});
