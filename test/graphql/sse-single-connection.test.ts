/**
 * graphql-sse's single connection mode (graphql-server/single-connection-mode.ts, docs/edge.md#graphql-sse), with
 * graphql-sse's own client (`singleConnection: true`) on a real port: one reserved stream carries a query, a
 * subscription and a second subscription at once; unsubscribing one (its DELETE) leaves the others; the operations
 * meet yoga's rules (trusted documents); the fast JSON path never takes an operation's POST. Then the protocol's
 * refusals, with plain fetch. Before this, `PUT /graphql` was a 405 and the client could not start.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { startProcess } from '../support/process.ts';
import { follow, rawStream, singleConnectionClient } from '../support/sse-single-connection.ts';
import { openSubscriptions } from '../support/subscriptions-open.ts';

const UPDATES = 'subscription ($n: ID!, $t: String!) { orderUpdates(orderNumber: $n, payToken: $t) { orderNumber status } }';
const OPTIONS = '{ sleeveOptions { charLimit } }';
const singleConnection = (url: string) => singleConnectionClient(`${url}/graphql`);

async function placeOrder(url: string, email: string = VALID_ORDER.email) {
  const response = await fetch(`${url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...VALID_ORDER, email }) });
  return (await response.json()) as { orderNumber: string; payToken: string };
}

describe("graphql-sse's single connection mode", () => {
  it('carries a query and two subscriptions on one stream; one stopped, the other follows the order to paid', async () => {
    const t = await liveServer();
    const url = t.server.url;
    const client = singleConnection(url);
    const { orderNumber, payToken } = await placeOrder(url);
    const first = follow(client, { query: UPDATES, variables: { n: orderNumber, t: payToken } });
    const second = follow(client, { query: UPDATES, variables: { n: orderNumber, t: payToken } });
    const options = await follow(client, { query: OPTIONS }).done;
    expect(options).toEqual([{ data: { sleeveOptions: { charLimit: expect.any(Number) } } }]);
    await first.until((all) => all.length === 1);
    await second.until((all) => all.length === 1);
    expect(first.results[0]!.data.orderUpdates).toEqual({ orderNumber, status: 'AWAITING_PAYMENT' });
    // The client's unsubscribe is a DELETE with the operation's id: that operation alone ends.
    await second.stop();
    const paid = await fetch(`${url}/api/orders/${orderNumber}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: payToken, method: 'vendor_card' }) });
    expect(paid.status).toBe(200);
    await first.until((all) => all.some((r) => r.data?.orderUpdates.status === 'RECEIVED'));
    expect(second.results).toHaveLength(1);
    await first.stop();
  });

  it("carries staff's operations with the token in the client's headers, and refuses them without", async () => {
    const t = await liveServer();
    const url = t.server.url;
    const EVENTS = 'subscription { orderEvents { orderNumber status } }';
    // Refused as over any other transport: one result with the field's error, then the operation's end.
    const anonymous = await follow(singleConnection(url), { query: EVENTS }).done;
    expect(anonymous).toMatchObject([{ errors: [{ path: ['orderEvents'], extensions: { code: 'UNAUTHORIZED' } }] }]);
    const staff = singleConnectionClient(`${url}/graphql`, fetch, { headers: { authorization: `Bearer ${t.adminToken}` } });
    const events = follow(staff, { query: EVENTS });
    // orderEvents starts with the next change: orders are placed until one shows.
    for (let i = 0; events.results.length === 0; i++) {
      expect(i, 'orderEvents never started').toBeLessThan(100);
      await placeOrder(url, `probe${i}@example.com`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(events.results[0]!.data.orderEvents).toMatchObject({ status: 'AWAITING_PAYMENT' });
    await events.stop();
  });

  it("applies yoga's rules to each operation: with GRAPHQL_TRUSTED_DOCUMENTS=only, text is refused", async () => {
    const t = await liveServer({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'only' } });
    const refused = await follow(singleConnection(t.server.url), { query: OPTIONS }).done.catch((error: { response?: Response }) => error);
    expect((refused as { response: Response }).response.status).toBe(400);
    // The body the client saw (it has read past it by now), as plain fetch gets it.
    const stream = await rawStream(t.server.url);
    const posted = await stream.post(t.server.url, 'op-1', { query: OPTIONS });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain('PERSISTED_QUERY_ONLY');
    await stream.close();
  });

  it('is never answered by the fast JSON path, even for a document it knows', async () => {
    const t = await liveServer();
    const url = t.server.url;
    for (let i = 0; i < 3; i++) await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: OPTIONS }) });
    const stream = await rawStream(url);
    expect((await stream.post(url, 'op-1', { query: OPTIONS })).status).toBe(202);
    await stream.until('event: complete');
    expect(stream.text()).toMatch(/event: next\ndata: \{"id":"op-1","payload":\{"data":\{"sleeveOptions":\{"charLimit":\d+\}\}\}\}\n\n/u);
    expect(stream.text()).toContain('event: complete\ndata: {"id":"op-1"}\n\n');
    await stream.close();
  });

  it("refuses what the protocol refuses, in graphql-sse's shapes", async () => {
    const t = await liveServer();
    const url = `${t.server.url}/graphql`;
    const token = await (await fetch(url, { method: 'PUT' })).text();
    expect(token).toMatch(/^[\w-]{32}\.[\w-]{22}$/u);
    const withToken = (init: RequestInit & { headers?: Record<string, string> }, as = token) => fetch(url, { ...init, headers: { 'x-graphql-event-stream-token': as, ...init.headers } });
    // A token no instance reserved (its HMAC does not match), however it is shaped.
    const forged = `${token.slice(0, 33)}${token[33] === 'A' ? 'B' : 'A'}${token.slice(34)}`;
    for (const as of [forged, 'made-up']) {
      const answer = await withToken({ headers: { accept: 'text/event-stream' } }, as);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ errors: [{ message: 'Stream not found' }] });
    }
    expect((await fetch(url, { method: 'PUT', headers: { accept: 'application/json' } })).status).toBe(406);
    const opened = await withToken({ headers: { accept: 'text/event-stream' } });
    expect(opened.status).toBe(200);
    const again = await fetch(`${url}?token=${token}`, { headers: { accept: 'text/event-stream' } });
    expect(again.status).toBe(409);
    const noId = await withToken({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: OPTIONS }) });
    expect(noId.status).toBe(400);
    expect(await noId.json()).toEqual({ errors: [{ message: 'Operation ID is missing' }] });
    expect((await withToken({ method: 'DELETE' })).status).toBe(400);
    expect((await fetch(`${url}?token=${token}&operationId=x`, { method: 'DELETE' })).status).toBe(200);
    await opened.body!.cancel();
  });

  it('refuses a second operation with the id of one still running on the stream (409), and takes it once that ended', async () => {
    const t = await liveServer();
    const url = t.server.url;
    const { orderNumber, payToken } = await placeOrder(url);
    const stream = await rawStream(url);
    const watch = { query: UPDATES, variables: { n: orderNumber, t: payToken } };
    expect((await stream.post(url, 'watch', watch)).status).toBe(202);
    await stream.until('AWAITING_PAYMENT');
    const again = await stream.post(url, 'watch', watch);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ errors: [{ message: 'Operation with ID already exists' }] });
    expect((await fetch(`${url}/graphql?operationId=watch`, { method: 'DELETE', headers: stream.headers })).status).toBe(200);
    await stream.until('event: complete');
    expect((await stream.post(url, 'watch', watch)).status).toBe(202);
    await stream.close();
  });

  it("ends an operation in the gateway at its DELETE, not at yoga's next ping", async () => {
    // A server process as in production: in vitest's module graph the streams yoga answers with are other ones, which
    // end at once, and this never showed.
    const server = await startProcess({ DATABASE_URL: ':memory:' });
    const url = server.url;
    const open = () => openSubscriptions(url, 'pickupBoard', 'sse');
    const stream = await rawStream(url);
    expect((await stream.post(url, 'board', { query: 'subscription { pickupBoard { __typename } }' })).status).toBe(202);
    await stream.until('PickupBoardEvent');
    // The subscription waits for its next event now. A stop cancelled only the reading of yoga's answer, which
    // @whatwg-node's stream runs after that pending read: the next event or yoga's ping, 12 s on (an outside
    // operator review saw the gauge stay up 11 to 23 s after graphql-sse's dispose).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await open()).toBe(1);
    expect((await fetch(`${url}/graphql?operationId=board`, { method: 'DELETE', headers: stream.headers })).status).toBe(200);
    await expect.poll(open, { timeout: 4_000 }).toBe(0);
    await stream.close();
  });

  it('refuses an operation whose chunked body passes MAX_BODY_BYTES with 413', async () => {
    const t = await liveServer({ env: { MAX_BODY_BYTES: '4096' } });
    const url = `${t.server.url}/graphql`;
    const token = await (await fetch(url, { method: 'PUT' })).text();
    const chunk = new TextEncoder().encode(' '.repeat(1024));
    let sent = 0;
    // No content-length: the door's own check cannot see the size before reading.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }, body, duplex: 'half' };
    const answer = await fetch(url, init as RequestInit);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ errors: [{ message: 'The request body is too large' }] });
  });
});
