/**
 * The endpoint API (docs/merchant-webhooks.md#endpoints): the site's basic auth, the platform error body, 400 for the
 * wrong shape and 422 for refused values with nothing stored, secrets only on creation and rotation (and sealed at
 * rest), another site's endpoint id answering 404 on every path, PATCH and DELETE.
 */
import { describe, expect, it } from 'vitest';
import { endpointAt, hooks, merchantSite, webhookGateway } from './support.ts';

describe('merchant webhooks: the endpoint API', () => {
  it('creates, lists, reads, changes and deletes; the secret is shown once and sealed at rest', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const created = await hooks(t, site, 'POST', '', { url: 'https://hooks.example.com/sleeve/', description: 'main', eventTypes: ['token-updated', 'token-updated'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ url: 'https://hooks.example.com/sleeve', description: 'main', eventTypes: ['token-updated'], enabled: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32);
    const id = created.body.id as string;

    const listed = await hooks(t, site, 'GET');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: any) => e.id)).toEqual([id]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    expect(JSON.stringify((await hooks(t, site, 'GET', `/${id}`)).body)).not.toContain('whsec_');
    const stored = await t.gateway.database.db.selectFrom('webhook_endpoints').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.body.secret);
    expect(JSON.stringify(stored)).not.toContain(created.body.secret.slice(6));

    const patched = await hooks(t, site, 'PATCH', `/${id}`, { eventTypes: [], enabled: false, description: null });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id, eventTypes: [], enabled: false, description: '', disabledReason: 'Disabled by the site.' });
    expect((await hooks(t, site, 'POST', `/${id}/test`)).status).toBe(422); // disabled: nothing to test against
    // "At most 500 characters" counts characters as people do: 500 emoji (1,000 UTF-16 units) fit (a merchant review).
    const emoji = '🧵'.repeat(500);
    expect((await hooks(t, site, 'PATCH', `/${id}`, { description: emoji })).body.description).toBe(emoji);
    expect((await hooks(t, site, 'PATCH', `/${id}`, { description: `${emoji}x` })).status).toBe(422);

    expect((await hooks(t, site, 'DELETE', `/${id}`)).status).toBe(204);
    expect((await hooks(t, site, 'GET', `/${id}`)).status).toBe(404);
    expect((await hooks(t, site, 'GET')).body).toEqual({ data: [] });
  });

  it("another site's endpoint id is 404 on every path, exactly like an unknown one", async () => {
    const t = await webhookGateway();
    const [a, b] = [await merchantSite(t), await merchantSite(t)];
    const { id } = await endpointAt(t, a);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/${id}`],
      ['PATCH', `/${id}`, { description: 'mine now' }],
      ['DELETE', `/${id}`],
      ['POST', `/${id}/rotate-secret`],
      ['GET', `/${id}/deliveries`],
      ['POST', `/${id}/recover`, { since: '2026-01-01T00:00:00Z' }],
      ['POST', `/${id}/test`],
    ];
    for (const [method, path, body] of calls) {
      const theirs = await hooks(t, b, method, path, body);
      const unknown = await hooks(t, b, method, path.replace(id, 'ep_unknown'), body);
      expect([method, path, theirs.status, theirs.body]).toEqual([method, path, 404, { status: 'error', message: 'No webhook endpoint has that id.' }]);
      expect(unknown.body).toEqual(theirs.body);
    }
    expect((await hooks(t, b, 'GET')).body).toEqual({ data: [] });
    expect((await hooks(t, a, 'GET', `/${id}`)).body.description).toBe('');
  });

  it('refuses bad input with 400 or 422 in the platform shape, and stores nothing', async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'url'],
      [{ url: 42 }, 400, 'url'],
      [{ url: 'https://x.example', eventTypes: 'token-updated' }, 400, 'eventTypes'],
      // null is no filter to read as "every event" (a merchant review: it subscribed the endpoint to all, token bodies too).
      [{ url: 'https://x.example', eventTypes: null }, 400, 'eventTypes'],
      [{ url: 'https://x.example', enabled: 'yes' }, 400, 'enabled'],
      [[], 400, 'body'],
      [{ url: 'ftp://x.example/hooks' }, 422, 'url'],
      [{ url: 'not a url' }, 422, 'url'],
      [{ url: 'https://user:pw@x.example' }, 422, 'url'],
      [{ url: 'https://x.example', eventTypes: ['token-updated', 'order.paid'] }, 422, 'eventTypes'],
      [{ url: 'https://x.example', description: 'x'.repeat(501) }, 422, 'description'],
      // Port 0 is no port anything listens on (a merchant review: it was stored).
      [{ url: 'https://x.example:0/hooks' }, 422, 'url'],
    ];
    for (const [body, status, field] of cases) {
      const res = await hooks(t, site, 'POST', '', body);
      expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([JSON.stringify(body).slice(0, 60), status]);
      expect(res.body).toMatchObject({ status: 'error', message: expect.stringContaining(field) });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const notJson = await t.rest('POST', '/v1/webhooks/endpoints', undefined, { ...site.auth, 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    expect(await t.gateway.database.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);

    const { id } = await endpointAt(t, site);
    const before = await hooks(t, site, 'GET', `/${id}`);
    expect((await hooks(t, site, 'PATCH', `/${id}`, { url: 'javascript:alert(1)' })).status).toBe(422);
    expect((await hooks(t, site, 'PATCH', `/${id}`, { enabled: 1 })).status).toBe(400);
    expect((await hooks(t, site, 'PATCH', `/${id}`, { eventTypes: null })).status).toBe(400);
    expect((await hooks(t, site, 'GET', `/${id}`)).body).toEqual(before.body);
    expect((await hooks(t, site, 'POST', `/${id}/recover`, { since: 'yesterday' })).status).toBe(422);
    expect((await hooks(t, site, 'POST', `/${id}/recover`, {})).status).toBe(400);
    expect((await hooks(t, site, 'POST', `/${id}/recover`, { since: new Date(t.clock.now() + 3_600_000).toISOString() })).status).toBe(422);
    expect((await hooks(t, site, 'GET', `/${id}/deliveries?status=LOST`)).status).toBe(400);
    // Days the calendar does not have (Date.parse reads 2026-02-30 as March 2), and limits outside 1 to 200.
    for (const since of ['2026-02-30T00:00:00Z', '2026-11-31T10:00:00Z', '2025-02-29T00:00:00Z']) {
      expect((await hooks(t, site, 'POST', `/${id}/recover`, { since })).status, since).toBe(422);
    }
    expect((await hooks(t, site, 'POST', `/${id}/recover`, { since: '2024-02-29T00:00:00Z' })).status).toBe(202);
    for (const limit of ['0', '201', '-1', '1.5', 'abc']) {
      expect((await hooks(t, site, 'GET', `/${id}/deliveries?limit=${limit}`)).status, limit).toBe(400);
    }
    expect((await hooks(t, site, 'GET', `/${id}/deliveries?limit=200`)).status).toBe(200);
  });

  it("refuses a browser form's content types on the POSTs that read no body (415), and changes nothing", async () => {
    const t = await webhookGateway();
    const site = await merchantSite(t);
    const { id } = await endpointAt(t, site);
    const before = await hooks(t, site, 'GET', `/${id}`);
    for (const path of [`/${id}/rotate-secret`, `/${id}/test`, `/${id}/deliveries/dlv_x/redeliver`]) {
      for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8', 'multipart/form-data; boundary=x']) {
        const res = await t.gateway.fetch(new Request(`http://sleeve.test/v1/webhooks/endpoints${path}`, { method: 'POST', headers: { ...site.auth, 'content-type': type }, body: 'a=1' }));
        expect(res.status, `${path} ${type}`).toBe(415);
        expect(await res.json()).toMatchObject({ status: 'error' });
      }
    }
    expect((await hooks(t, site, 'GET', `/${id}`)).body).toEqual(before.body);
    expect((await hooks(t, site, 'GET', `/${id}/deliveries`)).body.data).toEqual([]);
    // Without a body, or with JSON, they work as before.
    expect((await hooks(t, site, 'POST', `/${id}/test`)).status).toBe(202);
  });

  it('answers 401 without the site credentials, in the platform shape', async () => {
    const t = await webhookGateway();
    const res = await t.rest('GET', '/v1/webhooks/endpoints');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 'error' });
    const wrong = await t.rest('POST', '/v1/webhooks/endpoints', { url: 'https://x.example' }, { authorization: 'Basic ' + Buffer.from(`${t.siteId}:nope`).toString('base64') });
    expect(wrong.status).toBe(401);
    expect(await t.gateway.database.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
  });
});
