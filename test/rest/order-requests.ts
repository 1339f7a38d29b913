/** POST /api/orders as the REST door's order suites send it (create-order, duplicate-orders), with their checks. */
import { expect } from 'vitest';
import { VALID_ORDER, type TestGateway } from '../support/gateway.ts';

export const HOLD_FIELDS = ['holdUntil', 'holdUntilText', 'secondsLeft', 'payUrl', 'payToken', 'payLabel', 'payButtonLabel'] as const;
export const PAY_LABEL = 'Pay $1.00 - all payments will be refunded';

interface Options {
  sizes: string[];
  fonts: string[];
  threads: string[];
  charLimit: number;
}

/** The requests, on the gateway `gateway()` answers when each is sent (a suite's beforeEach makes a new one). */
export function orderRequests(gateway: () => TestGateway) {
  async function options(): Promise<Options> {
    const res = await gateway().rest('GET', '/api/sleeve-options');
    expect(res.status).toBe(200);
    return res.body as Options;
  }

  /** A valid order built from the options offered now, with `change` applied. */
  async function orderInput(change: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const o = await options();
    return { ...VALID_ORDER, size: o.sizes[0], font: o.fonts[0], thread: o.threads[0], ...change };
  }

  async function create(change: Record<string, unknown> = {}) {
    return gateway().rest('POST', '/api/orders', await orderInput(change));
  }

  async function expect422(change: Record<string, unknown>, field: string) {
    const res = await create(change);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ ok: false, code: 'validation_failed', field, retryable: false });
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error.length).toBeGreaterThan(0);
    return res;
  }

  async function expect201(change: Record<string, unknown>) {
    const res = await create(change);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('awaiting payment');
    return res;
  }

  return { options, orderInput, create, expect422, expect201 };
}
