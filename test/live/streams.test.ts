import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { subscriptionsOpen } from '../support/subscriptions-open.ts';

const ORDER_UPDATES = `subscription ($n: ID!, $t: String!) {
  orderUpdates(orderNumber: $n, payToken: $t) { orderNumber status secondsLeft message }
}`;

describe('orderUpdates', () => {
  it('sends the current order at once, then every change', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const updates = subscribe(live.client(), ORDER_UPDATES, { n: '1001', t: created.body.payToken });
    expect((await updates.next()).orderUpdates).toMatchObject({ orderNumber: '1001', status: 'AWAITING_PAYMENT', secondsLeft: 300 });
    await live.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' });
    expect((await updates.next()).orderUpdates).toMatchObject({ status: 'RECEIVED', secondsLeft: null });
  });

  it('gives a client that reconnects the current state first', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const first = live.client();
    const before = subscribe(first, ORDER_UPDATES, { n: '1001', t: created.body.payToken });
    await before.next();
    await first.dispose(); // the display loses its connection…
    await live.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' });
    const after = subscribe(live.client(), ORDER_UPDATES, { n: '1001', t: created.body.payToken });
    // …and is right again with the first message after reconnecting.
    expect((await after.next()).orderUpdates.status).toBe('RECEIVED');
  });

  it('refuses a wrong token with NOT_FOUND', async () => {
    const live = await liveServer();
    await live.rest('POST', '/api/orders', VALID_ORDER);
    const wrong = subscribe(live.client(), ORDER_UPDATES, { n: '1001', t: 'nope' });
    expect(((await wrong.failed) as Array<{ extensions: { code: string } }>)[0]!.extensions.code).toBe('NOT_FOUND');
  });
});

describe('sleeveOptionsChanged', () => {
  it('sends the options at once and the new set when staff change it', async () => {
    const live = await liveServer();
    const changes = subscribe(live.client(), 'subscription { sleeveOptionsChanged { sizes charLimit } }');
    expect((await changes.next()).sleeveOptionsChanged.charLimit).toBe(20);
    await live.gateway.services.options.update({
      sizes: [{ value: '13-inch' }],
      fonts: [{ value: 'Block' }],
      threads: [{ value: 'Gold', color: '#c9a227' }],
      charLimit: 12,
    });
    expect((await changes.next()).sleeveOptionsChanged).toEqual({ sizes: ['13-inch'], charLimit: 12 });
  });
});

describe('orderEvents (staff)', () => {
  const EVENTS = 'subscription { orderEvents { orderNumber status } }';

  it('is refused without the admin token, and with a wrong one, before subscribing', async () => {
    const live = await liveServer();
    for (const client of [live.client(), live.client('Bearer wrong-token')]) {
      const refused = subscribe(client, EVENTS);
      expect(((await refused.failed) as Array<{ extensions: { code: string } }>)[0]!.extensions.code).toBe('UNAUTHORIZED');
    }
  });

  it('streams every order change to staff', async () => {
    const live = await liveServer();
    const events = subscribe(live.client(`Bearer ${live.adminToken}`), EVENTS);
    await subscriptionsOpen(live.server.url, 'orderEvents'); // it listens before the change happens
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    expect((await events.next()).orderEvents).toEqual({ orderNumber: '1001', status: 'AWAITING_PAYMENT' });
    await live.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' });
    expect((await events.next()).orderEvents).toEqual({ orderNumber: '1001', status: 'RECEIVED' });
  });
});

describe('Server-Sent Events', () => {
  it('deliver the same events as the WebSocket', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const response = await fetch(`${live.server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: ORDER_UPDATES, variables: { n: '1001', t: created.body.payToken } }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const events: any[] = [];
    const readEvent = async () => {
      for (;;) {
        const match = /event: next\ndata: (.*)\n\n/u.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          events.push(JSON.parse(match[1]!));
          return events.at(-1);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    expect((await readEvent()).data.orderUpdates.status).toBe('AWAITING_PAYMENT');
    await live.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' });
    expect((await readEvent()).data.orderUpdates.status).toBe('RECEIVED');
    await reader.cancel();
  });
});
