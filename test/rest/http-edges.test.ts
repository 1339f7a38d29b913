/**
 * The REST door's edges (document 1 §2, §4, §7; docs/ordering.md): sleeve options and their images, the event text,
 * unknown paths and methods, oversized bodies, rate limits, `retryable` and `Retry-After` for every code,
 * and the hold surviving a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { findOrder } from '../../src/orders/order-repository.ts';
import { DomainError, type ErrorCode } from '../../src/kernel/errors.ts';
import { afterThisTest, testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

describe('GET /api/sleeve-options', () => {
  it('answers 200 SleeveOptions with matching value lists and choice lists', async () => {
    const res = await t.rest('GET', '/api/sleeve-options');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    const body = res.body;
    expect(body.ok).toBe(true);
    expect(Number.isInteger(body.charLimit)).toBe(true);
    expect(body.charLimit).toBeGreaterThan(0);
    for (const [list, choices] of [
      ['sizes', 'sizeChoices'],
      ['fonts', 'fontChoices'],
      ['threads', 'threadChoices'],
    ] as const) {
      expect(Array.isArray(body[list])).toBe(true);
      expect(body[list].length).toBeGreaterThan(0);
      expect(body[choices].map((c: { value: string }) => c.value)).toEqual(body[list]);
      for (const c of body[choices]) expect(typeof c.image).toBe('string');
    }
  });

  it('serves every choice image as an SVG', async () => {
    const body = (await t.rest('GET', '/api/sleeve-options')).body;
    const images: string[] = [...body.sizeChoices, ...body.fontChoices, ...body.threadChoices].map((c: { image: string }) => c.image);
    expect(images.length).toBe(body.sizes.length + body.fonts.length + body.threads.length);
    for (const image of images) {
      expect(image.startsWith('http://sleeve.test/')).toBe(true);
      const res = await t.rest('GET', image.slice('http://sleeve.test'.length));
      expect(res.status, image).toBe(200);
      expect(res.headers.get('content-type'), image).toMatch(/^image\/svg\+xml/u);
      expect(String(res.body).startsWith('<svg'), image).toBe(true);
    }
  });

  it('answers 404 to an image that is not offered', async () => {
    for (const path of ['/images/options/size/99-inch.svg', '/images/options/colour/Gold.svg', '/images/options/size/13-inch.png']) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    }
  });

  it('limits reads: the 4th lookup past RATE_LIMIT_READ=3 that opens nothing is 429 with Retry-After, allowed again after the window', async () => {
    t = await testGateway({ env: { RATE_LIMIT_READ: '3', RATE_LIMIT_WRITE: '2' } });
    const lookup = (i: number) => t.rest('GET', `/api/orders/1001?t=guess-${i}`);
    for (let i = 0; i < 3; i++) expect((await lookup(i)).status).toBe(404);
    // docs/edge.md#options-reads: the options are counted by no limit.
    for (let i = 0; i < 5; i++) expect((await t.rest('GET', '/api/sleeve-options')).status).toBe(200);
    const limited = await lookup(3);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'rate_limited', retryable: true });
    expect(limited.body.error.length).toBeGreaterThan(0);
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/u);
    // The window slides (docs/edge.md#rate-limits-at-a-venue): a burst is forgotten within two windows, and
    // Retry-After says when exactly.
    expect(Number(retryAfter)).toBeLessThanOrEqual(120);
    await t.clock.advance(Number(retryAfter) * 1000);
    expect((await lookup(4)).status).toBe(404);
  });
});

describe('GET /llms-full.txt', () => {
  it('answers 200 text/plain; charset=utf-8 with agenda, speakers, venue, food and swag', async () => {
    const res = await t.rest('GET', '/llms-full.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    for (const word of ['Agenda', 'Speakers', 'Venue', 'Food', 'Swag']) expect(res.body).toContain(word);
  });
});

describe('unknown paths, wrong methods and oversized bodies', () => {
  it('answers an unknown path with a JSON 404 Error body', async () => {
    for (const path of ['/nope', '/api/orders/1001/refund', '/api/sleeve-options/extra']) {
      const res = await t.rest('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
      expect(res.body).toMatchObject({ ok: false, code: 'not_found', retryable: false });
      expect(typeof res.body.error).toBe('string');
    }
  });

  it('answers GET /api/orders with 405 and an Allow header naming POST', async () => {
    const res = await t.rest('GET', '/api/orders');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body).toMatchObject({ ok: false, retryable: false });
  });

  it('answers a wrong method on the other documented paths with 405 and Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/api/sleeve-options', 'GET'],
      ['DELETE', '/api/orders/1001', 'GET'],
      ['GET', '/api/orders/1001/pay', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await t.rest(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it("answers the processor webhook's wrong method and unknown paths under it in the platform's shape (document 2 is the platform's)", async () => {
    const path = '/webhooks/processor/site_test/acc-1?bt_challenge=a1b2c3d4e5f60718293a';
    const wrong = await t.rest('POST', path);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect(wrong.body).toEqual({ status: 'error', message: expect.stringMatching(/^POST is not allowed/u) });
    const unknown = await t.rest('GET', '/webhooks/processor/site_test/acc-1/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', message: expect.any(String) });
  });

  it('answers a body larger than MAX_BODY_BYTES with 413 and stores nothing', async () => {
    t = await testGateway({ env: { MAX_BODY_BYTES: '2048' } });
    const big = JSON.stringify({ ...VALID_ORDER, padding: 'x'.repeat(4096) });
    const res = await t.rest('POST', '/api/orders', big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, retryable: false });
    const ok = await t.rest('POST', '/api/orders', VALID_ORDER);
    expect(ok.status).toBe(201);
    expect(ok.body.orderNumber).toBe('1001');
    const pay = await t.rest('POST', '/api/orders/1001/pay', JSON.stringify({ t: ok.body.payToken, method: 'vendor_card', pad: 'x'.repeat(4096) }));
    expect(pay.status).toBe(413);
  });

  it('answers HEAD on the options path with 200 and no body', async () => {
    const res = await t.rest('HEAD', '/api/sleeve-options');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('retryable and Retry-After for every code (docs/ordering.md#retryable-codes)', () => {
  // Codes that no input can produce yet on these paths are driven through the services the door calls.
  const cases: Array<[ErrorCode, number, boolean]> = [
    ['declined', 402, false],
    ['payment_unknown', 502, true],
    ['payment_error', 502, true],
    ['unavailable', 503, true],
    ['internal', 500, true],
  ];

  it.each(cases)('maps %s to HTTP %i with retryable %s', async (code, status, retryable) => {
    vi.spyOn(t.gateway.services.orders, 'pay').mockRejectedValue(new DomainError(code, `failure ${code}`));
    const res = await t.rest('POST', '/api/orders/1001/pay', { t: 'x', method: 'vendor_card' });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ ok: false, code, error: `failure ${code}`, retryable });
    if (status === 503) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    else expect(res.headers.get('retry-after')).toBeNull();
  });

  it('answers an unexpected failure with 500 internal, retryable, and no detail of the failure', async () => {
    vi.spyOn(t.gateway.services.orders, 'lookup').mockRejectedValue(new Error('SQLITE_BUSY secret detail'));
    const res = await t.rest('GET', '/api/orders/1001?t=x');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ ok: false, code: 'internal', retryable: true });
    expect(JSON.stringify(res.body)).not.toContain('SQLITE_BUSY');
  });

  it('sends Retry-After with the seconds an unavailable error names', async () => {
    vi.spyOn(t.gateway.services.options, 'current').mockRejectedValue(new DomainError('unavailable', 'down', { retryAfter: 7 }));
    const res = await t.rest('GET', '/api/sleeve-options');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body.retryable).toBe(true);
  });

  it('marks every code the inputs can produce with its documented retryable value', async () => {
    const created = await t.rest('POST', '/api/orders', VALID_ORDER);
    expect(created.status).toBe(201);
    const seen: Record<string, { status: number; retryable: boolean }> = {};
    const note = (r: { status: number; body: { code: string; retryable: boolean } }) => {
      seen[r.body.code] = { status: r.status, retryable: r.body.retryable };
    };
    note(await t.rest('POST', '/api/orders', '['));
    note(await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'x' }));
    note(await t.rest('POST', '/api/orders', VALID_ORDER));
    note(await t.rest('GET', '/api/orders/1001?t=wrong'));
    await t.clock.advance(300_000);
    note(await t.rest('POST', '/api/orders/1001/pay', { t: created.body.payToken, method: 'vendor_card' }));
    expect(seen).toEqual({
      bad_request: { status: 400, retryable: false },
      validation_failed: { status: 422, retryable: false },
      duplicate: { status: 409, retryable: false },
      not_found: { status: 404, retryable: false },
      cancelled: { status: 409, retryable: false },
    });
  });
});

describe('a hold that ends while the server is down (docs/ordering.md#hold-expiry)', () => {
  it('is cancelled when the server starts again, before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sleeve-rest-'));
    afterThisTest(async () => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: `file:${join(dir, 'sleeve.db')}` };
    const clock = createManualClock();
    const first = await testGateway({ env, clock });
    const created = await first.rest('POST', '/api/orders', VALID_ORDER);
    expect(created.status).toBe(201);
    await first.gateway.dispose();

    // Time passes with no process running; the next start sweeps ended holds.
    await clock.set(clock.now() + 600_000);
    const second = await testGateway({ env, clock });
    const row = await findOrder(second.gateway.database.db, 1001);
    expect(row?.status).toBe('cancelled');
    expect(row?.cancel_reason).toBe('not paid within 5 minutes');
    const again = await second.rest('POST', '/api/orders', VALID_ORDER);
    expect(again.status).toBe(201);
    expect(again.body.orderNumber).toBe('1002');
  });
});
