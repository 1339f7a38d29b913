/**
 * Bad input, generated (the guide: "bad input gets a clear error in its path's documented shape, never a 500, and
 * nothing stored changes"). Every route /openapi.json describes is sent, over a real socket to a gateway on a SQLite
 * file, what fast-check makes from the route's own documented example (test/support/bad-input.ts): a field dropped,
 * retyped or swapped for odd text or numbers, an unknown field, any JSON, broken JSON, a wrong media type, odd path
 * segments and header values. The example's placeholders are first replaced by objects that exist (an order and its
 * payToken, a merchant, a vault token, a webhook endpoint), so most cases get past "not found" to the rules.
 *
 * Each answer must be below 500 and one the document describes for its route and status
 * (test/support/openapi-answers.ts); an answer refusing the request (400, 401, 404, 413, 415, 422) must leave every
 * table as it was. fast-check prints the seed and the smallest failing case: FUZZ_SEED replays it, FUZZ_RUNS widens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, describedRoutes } from '../../rest-compat/openapi/document.ts';
import { badBodies, fuzzRuns, headerValue, pathSegment, type BadBody } from '../support/bad-input.ts';
import { answerProblem } from '../support/openapi-answers.ts';
import { changedTables, gatewayOnFile, storedRows } from '../support/stored-rows.ts';

/** Answers that refuse the request: nothing may be stored. */
const REFUSALS = new Set([400, 401, 404, 413, 415, 422]);

interface Operation {
  parameters?: Array<{ in: string; name: string; example?: unknown }>;
  requestBody?: { content: Record<string, { example?: unknown }> };
  security?: Array<Record<string, string[]>>;
}

describe('bad input, generated for every documented route', () => {
  it('never answers 500 nor outside the document, and a refusal stores nothing', { timeout: 600_000 }, async () => {
    const { t, file, base } = await gatewayOnFile();
    const site = { authorization: t.siteAuthorization, 'x-vendor-siteid': t.siteId, 'api-version': '10.3' };

    const send = async (method: string, path: string, body?: BadBody, headers: Record<string, string> = {}) => {
      const response = await fetch(base + path, { method, headers: { ...headers, ...(body ? { 'content-type': body.contentType } : {}) }, body: body?.text });
      const text = await response.text();
      const type = response.headers.get('content-type');
      return { status: response.status, type, body: type?.includes('json') && text ? (JSON.parse(text) as any) : text };
    };
    const json = (value: unknown): BadBody => ({ text: JSON.stringify(value), contentType: 'application/json', how: 'fixture' });

    // Objects that exist, for the examples' placeholders and the path parameters.
    const order = await t.createOrder({ email: 'fuzz@example.com' });
    const document = buildOpenApiDocument(describedRoutes(), base) as unknown as { paths: Record<string, Record<string, Operation>> };
    const exampleOf = (path: string, method: string) => Object.values(document.paths[path]?.[method]?.requestBody?.content ?? {})[0]?.example;
    const merchant = await send('POST', '/merchants', json(exampleOf('/merchants', 'post')), site);
    expect(merchant.status, JSON.stringify(merchant.body)).toBe(200);
    const merchantId = String(merchant.body.id ?? merchant.body.merchantId);
    const enrollment = await send('POST', `/merchants/${merchantId}/3ds-recommendation`, json(exampleOf('/merchants/{id}/3ds-recommendation', 'post')), site);
    expect(enrollment.status, JSON.stringify(enrollment.body)).toBe(200);
    const vault = await send('POST', '/v1/tokenization/tokenize', json(exampleOf('/v1/tokenization/tokenize', 'post')), site);
    expect(vault.status, JSON.stringify(vault.body)).toBe(200);
    const endpoint = await send('POST', '/v1/webhooks/endpoints', json(exampleOf('/v1/webhooks/endpoints', 'post')), site);
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

    const placeholders: Record<string, string> = { '1001': order.orderNumber, '3q2-…': order.payToken, 'tok_…': String(vault.body.token) };
    const filled = (value: unknown): unknown =>
      typeof value === 'string' ? (placeholders[value] ?? value) : Array.isArray(value) ? value.map(filled) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v)])) : value;
    const existing = (template: string, name: string): string => {
      if (name === 'orderNumber') return order.orderNumber;
      if (name === 'id' && template.startsWith('/merchants')) return merchantId;
      if (name === 'id' && template.startsWith('/v1/webhooks')) return String(endpoint.body.id);
      if (name === 'requestId') return String(enrollment.body.requestId);
      if (name === 'siteId') return t.siteId;
      return `fuzz-${name}`;
    };

    const before = storedRows(file);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changedTables(before, storedRows(file)), 'the database is still changing before the first case').toEqual([]);

    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = [...template.matchAll(/\{([^}]+)\}/gu)].map((m) => m[1]!);
        const media = Object.keys(operation.requestBody?.content ?? {})[0];
        const example = filled(operation.requestBody?.content[media!]?.example ?? {});
        const bySite = (operation.security ?? []).some((s) => 'siteBasic' in s);
        const headers = fc.record<Record<string, string>>(
          bySite
            ? { authorization: headerValue(site.authorization), 'x-vendor-siteid': headerValue(site['x-vendor-siteid']), 'api-version': headerValue(site['api-version']), 'idempotency-key': headerValue('fuzz-key') }
            : { 'idempotency-key': headerValue('fuzz-key') },
        );
        const segments = fc.tuple(...names.map((name) => pathSegment(existing(template, name))));
        const body = media ? badBodies(example).map((b): BadBody | undefined => b) : fc.constant(undefined);
        const query = fc.oneof(fc.constant(''), fc.string({ maxLength: 30 }).map((q) => `?${encodeURIComponent(q)}=${encodeURIComponent(q)}`), fc.constantFrom('?t=', '?t=%', '?limit=-1', '?limit=abc&limit=2', '?status=x', '?size=&text='));

        await fc.assert(
          fc.asyncProperty(segments, body, headers, query, async (values, bad, sentHeaders, search) => {
            let path = template;
            names.forEach((name, i) => (path = path.replace(`{${name}}`, values[i]!)));
            // As fetch sends it: the URL parser resolves dot segments, `%2e%2e` included.
            const sent = new URL(base + path + search);
            path = sent.pathname + sent.search;
            const stored = storedRows(file);
            const answer = await send(method.toUpperCase(), path, bad, sentHeaders);
            const what = `${method.toUpperCase()} ${path.slice(0, 200)} (${bad?.how ?? 'no body'}) answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`;
            expect(answer.status, what).toBeLessThan(500);
            expect(answerProblem(method, path, answer.status, answer.type, answer.body), what).toBeNull();
            if (REFUSALS.has(answer.status)) expect(changedTables(stored, storedRows(file)), `${what}\nchanged tables`).toEqual([]);
          }),
          // 100 cases per route with a body, 34 for the others: about 20 s here.
          fuzzRuns(media ? 100 : 34),
        );
      }
    }
  });
});
