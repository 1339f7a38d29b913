/**
 * GET /openapi.json (docs/agents.md#openapi-document): one source with the route table — every route the REST door
 * holds has a description and every description a route — a document a standard validator accepts
 * (@readme/openapi-parser), and a response check (test/support/openapi-answers.ts) that really refuses answers the
 * document does not describe. That check runs on every answer the REST suites receive, through `rest`.
 */
import { validate, compileErrors } from '@readme/openapi-parser';
import { Registry } from 'prom-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRestApi } from '../../rest-compat/api.ts';
import { buildOpenApiDocument, describedRoutes, routeCoverage, routeKey } from '../../rest-compat/openapi/document.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createRateLimiter } from '../../src/kernel/rate-limiter.ts';
import { Readiness } from '../../src/operations/readiness.ts';
import { testGateway, type TestGateway } from '../support/gateway.ts';
import { answerProblem, schemaProblem } from '../support/openapi-answers.ts';

let t: TestGateway;

beforeEach(async () => {
  t = await testGateway();
});

/** The REST door as the server builds it, with /metrics on: its route table. */
function restDoor() {
  const { services, config } = t.gateway;
  return createRestApi({
    services,
    config,
    limiter: createRateLimiter(config.rateLimits, t.clock),
    logger: createLogger('silent'),
    publicUrl: config.publicUrl,
    readiness: new Readiness([]),
    metrics: { registry: new Registry(), token: null },
  });
}

/** Every `METHOD /path/{param}` a document names. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

describe('one source: the route table and the descriptions', () => {
  it('has a description for every route, and a route for every description', () => {
    const { undescribed, unrouted } = routeCoverage(restDoor().routes());
    expect(undescribed, 'routes with no OpenAPI description (add one in rest-compat/openapi/)').toEqual([]);
    expect(unrouted, 'OpenAPI descriptions with no route (remove them, or fix the key to the route as written)').toEqual([]);
  });

  it('reports a route added without a description, and a description whose route is gone', () => {
    const routes = [...restDoor().routes()];
    const dropped = routes.shift()!;
    const coverage = routeCoverage([...routes, { method: 'GET', path: '/api/undescribed' }]);
    expect(coverage).toEqual({ undescribed: ['GET /api/undescribed'], unrouted: [routeKey(dropped)] });
  });

  it('serves exactly the routes of the table, with {param} paths', async () => {
    const res = await t.rest('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    const expected = t.gateway.config.metricsEnabled ? describedRoutes() : describedRoutes().filter((r) => r.path !== '/metrics');
    const asOpenApi = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/gu, '{$1}')}`;
    expect(operationsOf(res.body).sort()).toEqual(expected.map(asOpenApi).sort());
    expect(res.body.paths['/api/orders/{orderNumber}/pay'].post.parameters[0]).toMatchObject({ name: 'orderNumber', in: 'path', required: true });
    expect(res.body.servers).toEqual([{ url: 'http://sleeve.test' }]);
  });

  it('leaves out a path the server does not answer: no /metrics with METRICS=off', async () => {
    const off = await testGateway({ env: { METRICS: 'off' } });
    const res = await off.rest('GET', '/openapi.json');
    expect(res.body.paths['/metrics']).toBeUndefined();
    expect(res.body.paths['/health']).toBeDefined();
    // Not through `rest`: its response check knows every described path, /metrics included.
    expect((await off.gateway.fetch(new Request('http://sleeve.test/metrics'))).status).toBe(404);
  });
});

describe('the document', () => {
  it('passes a standard OpenAPI 3.1 validator', async () => {
    const res = await t.rest('GET', '/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(res.body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.specification).toBe('OpenAPI');
    expect(result.warnings).toEqual([]);
  });

  it('declares the security schemes and uses them where document 1 and 3 do', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    expect(body.components.securitySchemes).toMatchObject({
      siteBasic: { type: 'http', scheme: 'basic' },
      staffBearer: { type: 'http', scheme: 'bearer' },
    });
    // Document 1 lists the lookup's `t` as a required query parameter: a per-order argument, not a credential (as a
    // security scheme, generators and tool converters left it out of the call's arguments).
    expect(body.components.securitySchemes.payToken).toBeUndefined();
    const lookup = body.paths['/api/orders/{orderNumber}'].get;
    expect(lookup.parameters).toContainEqual(expect.objectContaining({ name: 't', in: 'query', required: true }));
    expect(lookup.security).toEqual([]);
    // The pay page's token paths answer a cancelled order 409 `cancelled`, as pay does (the example read `duplicate`).
    for (const path of ['/api/orders/{orderNumber}/card-token', '/api/orders/{orderNumber}/wallet-token', '/api/orders/{orderNumber}/pay']) {
      expect(body.paths[path].post.responses['409'].content['application/json'].example.code, path).toBe('cancelled');
    }
    expect(body.paths['/merchants'].post.security).toEqual([{ siteBasic: [] }]);
    expect(body.paths['/v1/tokenization/detokenize'].post.security).toEqual([{ siteBasic: [] }]);
    // Public, and said so: an operation without `security` reads as forgotten to a linter or a generator.
    expect(body.paths['/api/sleeve-options'].get.security).toEqual([]);
  });

  it("gives each family its own error body, and document 1's statuses", async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    const errorOf = (path: string, method: string, status: string) => body.paths[path][method].responses[status].content['application/json'].schema.$ref;
    expect(Object.keys(body.paths['/api/orders'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '422', '429', '500', '503']));
    expect(Object.keys(body.paths['/api/orders/{orderNumber}/pay'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '402', '404', '409', '429', '500', '502', '503']),
    );
    expect(errorOf('/api/orders', 'post', '422')).toBe('#/components/schemas/Error');
    expect(errorOf('/merchants', 'post', '401')).toBe('#/components/schemas/PlatformError');
    expect(errorOf('/v1/tokenization/upgrade', 'post', '400')).toBe('#/components/schemas/TokenizationError');
    expect(body.paths['/api/orders'].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(body.paths['/api/orders'].post.requestBody.content['application/json'].example).toMatchObject({ stitchText: 'ADA 1815' });
  });

  it('is built once: the same bytes on every request', async () => {
    const first = await t.gateway.fetch(new Request('http://sleeve.test/openapi.json'));
    const second = await t.gateway.fetch(new Request('http://sleeve.test/openapi.json'));
    const served = await first.text();
    expect(await second.text()).toBe(served);
    expect(JSON.parse(served)).toEqual(buildOpenApiDocument(restDoor().routes(), 'http://sleeve.test'));
  });
});

describe('the examples', () => {
  it('each conforms to its own schema, request bodies and answers alike', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    const problems: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(body.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [media, content] of Object.entries<any>(operation.requestBody?.content ?? {})) {
          if (content.example === undefined) continue;
          checked++;
          const problem = schemaProblem(['paths', path, method, 'requestBody', 'content', media, 'schema'], content.example);
          if (problem) problems.push(`${method} ${path} request example: ${problem}`);
        }
        for (const [status, answer] of Object.entries<any>(operation.responses)) {
          for (const [media, content] of Object.entries<any>(answer.content ?? {})) {
            if (content.example === undefined) continue;
            checked++;
            const problem = answerProblem(method, path, Number(status), media, content.example);
            if (problem) problems.push(problem);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('name, in a platform 400, a field the operation has: merchantId only where a merchant is created', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    const named: Record<string, string> = {};
    for (const [path, item] of Object.entries<Record<string, any>>(body.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const example = operation.responses['400']?.content?.['application/json']?.example;
        if (example?.status === 'error') named[`${method.toUpperCase()} ${path}`] = example.errors[0].field;
      }
    }
    expect(named).toMatchObject({
      'POST /merchants': 'merchantId',
      'POST /merchants/{id}/3ds-recommendation': 'offerings',
      'POST /v2/accounts/item-listing/{id}': 'eventTime',
      'POST /v2/accounts/profile-access/{id}': 'accountId',
      'POST /api/payments': 'amount',
    });
    expect(Object.entries(named).filter(([operation, field]) => field === 'merchantId' && operation !== 'POST /merchants')).toEqual([]);
  });
});

describe('the response check the REST suites run', () => {
  it('accepts a real answer', async () => {
    const res = await t.rest('GET', '/api/sleeve-options');
    expect(answerProblem('GET', '/api/sleeve-options', res.status, res.headers.get('content-type'), res.body)).toBeNull();
  });

  it('refuses a body missing a required field, an undeclared field, an unlisted status and an undescribed media type', () => {
    const json = 'application/json; charset=utf-8';
    expect(answerProblem('GET', '/api/sleeve-options', 200, json, { ok: true })).toMatch(/must have required property 'sizes'/u);
    const error = { ok: false, code: 'not_found', error: 'No.', retryable: false };
    expect(answerProblem('GET', '/api/orders/1001?t=x', 404, json, { ...error, secret: 'x' })).toContain('additional properties {"additionalProperty":"secret"}');
    expect(answerProblem('GET', '/api/orders/1001', 404, json, { ...error, code: 'teapot' })).toMatch(/allowed values/u);
    expect(answerProblem('POST', '/api/orders', 418, json, error)).toMatch(/status \/openapi.json does not list/u);
    expect(answerProblem('GET', '/api/sleeve-options', 200, 'text/html', '<p>')).toMatch(/describes application\/json/u);
  });

  it('leaves alone what the document does not name: GraphQL, unknown paths, preflights', () => {
    expect(answerProblem('POST', '/graphql', 200, 'application/json', { data: {} })).toBeNull();
    expect(answerProblem('GET', '/no/such/path', 404, 'application/json', {})).toBeNull();
    expect(answerProblem('OPTIONS', '/api/orders', 204, null, '')).toBeNull();
  });
});
