import { describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { systemClock } from '../../src/kernel/clock.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createHoldTicker } from '../../src/orders/hold-ticker.ts';
import { createLiveService } from '../../src/orders/live-service.ts';
import { createGateway, startServer } from '../../src/server.ts';
import { afterThisTest, testGateway, VALID_ORDER } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';

const COUNTDOWN = `subscription ($n: ID!, $t: String!) {
  holdCountdown(orderNumber: $n, payToken: $t) { orderNumber status secondsLeft holdUntil final }
}`;

describe('holdCountdown over graphql-ws', () => {
  it('sends the state at once, a tick as each whole second passes, then a final PAID event and completes', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const ticks = subscribe(live.client(), COUNTDOWN, { n: '1001', t: created.body.payToken });

    expect(await ticks.next()).toEqual({
      holdCountdown: { orderNumber: '1001', status: 'AWAITING_PAYMENT', secondsLeft: 300, holdUntil: created.body.holdUntil, final: false },
    });
    await live.clock.advance(1_000);
    expect((await ticks.next()).holdCountdown.secondsLeft).toBe(299);
    await live.clock.advance(1_000);
    expect((await ticks.next()).holdCountdown.secondsLeft).toBe(298);

    await live.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' });
    expect((await ticks.next()).holdCountdown).toMatchObject({ status: 'RECEIVED', final: true });
    await ticks.completed;
  });

  it('ends with a final CANCELLED event when the hold runs out', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const ticks = subscribe(live.client(), COUNTDOWN, { n: '1001', t: created.body.payToken });
    await ticks.next();
    await live.clock.advance(300_000);
    await ticks.completed;
    const last = ticks.all.at(-1)!.holdCountdown;
    expect(last).toMatchObject({ status: 'CANCELLED', final: true, secondsLeft: 0 });
    // Every tick in between counted down, never up.
    const seconds = ticks.all.map((m) => m.holdCountdown.secondsLeft);
    expect([...seconds].sort((a, b) => b - a)).toEqual(seconds);
  });

  it('fails a wrong token like the order query does: not found, and the socket stays open', async () => {
    const live = await liveServer();
    const created = await live.rest('POST', '/api/orders', VALID_ORDER);
    const client = live.client();
    const wrong = subscribe(client, COUNTDOWN, { n: '1001', t: 'not-the-token' });
    const errors = (await wrong.failed) as Array<{ extensions?: { code?: string } }>;
    expect(errors[0]!.extensions?.code).toBe('NOT_FOUND');
    // The same connection still serves a good subscription.
    const right = subscribe(client, COUNTDOWN, { n: '1001', t: created.body.payToken });
    expect((await right.next()).holdCountdown.status).toBe('AWAITING_PAYMENT');
  });

  it('ticks about a second apart in real time, each order on its own second boundary', async () => {
    const gateway = await createGateway({ clock: systemClock, env: { HOLD_SECONDS: '3', ADMIN_TOKEN: 'x' } });
    const server = await startServer(gateway, { port: 0, host: '127.0.0.1' });
    afterThisTest(async () => {
      await server.close(1_000);
      await gateway.dispose();
    });
    const response = await gateway.fetch(
      new Request('http://x/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) }),
    );
    const { payToken, holdUntil } = (await response.json()) as { payToken: string; holdUntil: string };
    const client = createClient({ url: `ws://127.0.0.1:${server.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    afterThisTest(async () => client.dispose());
    const arrivals: Array<{ at: number; secondsLeft: number; status: string }> = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ holdCountdown: { secondsLeft: number; status: string } }>(
        { query: COUNTDOWN, variables: { n: '1001', t: payToken } },
        {
          next: ({ data }) => arrivals.push({ at: Date.now(), ...data!.holdCountdown }),
          error: reject,
          complete: resolve,
        },
      );
    });
    const ticks = arrivals.slice(1, -1); // between the first (at once) and the final event
    expect(ticks.map((t) => t.secondsLeft)).toEqual([2, 1, 0].slice(3 - ticks.length));
    for (let i = 1; i < ticks.length; i++) {
      const gap = ticks[i]!.at - ticks[i - 1]!.at;
      expect(gap).toBeGreaterThan(700);
      expect(gap).toBeLessThan(1_400);
    }
    // Each tick comes just after a whole second before holdUntil, not on the wall clock's second.
    const end = Date.parse(holdUntil);
    for (const tick of ticks) {
      const sinceBoundary = (((end - tick.at) % 1000) + 1000) % 1000;
      expect(1000 - sinceBoundary).toBeLessThan(300);
    }
    expect(arrivals.at(-1)!.status).toBe('CANCELLED');
  });
});

describe('holdCountdown, the service', () => {
  it('ends with the final event when the order is paid after the watch began listening and before its first read', async () => {
    const t = await testGateway();
    const { gateway } = t;
    const { orderNumber, payToken } = await t.createOrder();
    const real = gateway.services.orders;
    // The pay commits and publishes inside the watch's read, which then returns the order as it was before it.
    const orders = {
      ...real,
      lookup: async (n: string, token: string) => {
        const before = await real.lookup(n, token);
        await real.pay(n, { t: token, method: 'vendor_card' });
        return before;
      },
    };
    const live = createLiveService({
      database: gateway.database,
      bus: gateway.bus,
      clock: gateway.clock,
      logger: createLogger('silent'),
      publicUrl: gateway.config.publicUrl,
      holdSeconds: 300,
      config: gateway.config,
      orders,
      options: gateway.services.options,
      staff: gateway.services.staff,
      ticker: createHoldTicker(gateway.clock),
    });
    const events: Array<[string, boolean]> = [];
    for await (const event of await live.holdCountdown(orderNumber, payToken)) events.push([event.order.status, event.final]);
    expect(events).toEqual([
      ['awaiting payment', false],
      ['received', true],
    ]);
  });
});
