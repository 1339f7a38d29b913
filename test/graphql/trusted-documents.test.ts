/**
 * Trusted documents (docs/graphql.md#trusted-documents): the pages' operations as a manifest of hashes, accepted by
 * hash; GRAPHQL_TRUSTED_DOCUMENTS=only refusing any other document from callers without the staff token; APQ for
 * other clients. Each case runs over the in-memory gateway (yoga) and a real port, where a repeated request is
 * answered by the fast JSON path — asserted, not assumed (`path`).
 */
import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildManifest, MANIFEST_FILE, printedManifest, sha256Hex } from '../../scripts/trusted-documents.ts';
import { schema } from '../../schema/index.ts';
import { createGraphQLDoor } from '../../graphql-server/graphql-door.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { createRateLimiter } from '../../src/kernel/rate-limiter.ts';
import { TRUSTED_OPERATIONS } from '../../src/pages/trusted-operations.ts';
import { testGateway } from '../support/gateway.ts';
import { TRANSPORTS } from '../support/graphql-transports.ts';
import { byHash, policyGateway, STAFF } from './document-policy-support.ts';

const hashOf = (name: string) => TRUSTED_OPERATIONS.find((o) => o.name === name)!.id;
const OPTIONS = 'OrderPageOptions';
const ONLY = { GRAPHQL_TRUSTED_DOCUMENTS: 'only' };
const TEXT = '{ sleeveOptions { charLimit } }';

describe('the manifest (src/pages/operations/manifest.json)', () => {
  it('is what scripts/trusted-documents.ts builds from the .graphql files (run `npx tsx scripts/trusted-documents.ts` when this fails)', () => {
    expect(readFileSync(MANIFEST_FILE, 'utf8'), 'the manifest is stale: run `npx tsx scripts/trusted-documents.ts`').toBe(printedManifest());
  });

  it('names each operation by the SHA-256 of its text, which holds the fragments it uses', () => {
    const { operations } = buildManifest();
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const o of operations) {
      expect(o.id).toBe(sha256Hex(o.body));
      expect(parse(o.body).definitions[0]).toMatchObject({ kind: 'OperationDefinition', operation: o.type, name: { value: o.name } });
    }
    expect(operations.find((o) => o.name === 'CreateOrder')!.body).toContain('fragment OrderFields on Order');
  });

  it('holds only documents valid against the schema as it is now, within the door\'s query limits', async () => {
    const { gateway } = await testGateway();
    // The door's own parse and validate, with every plugin's rules: GraphQL Armor's tokens, depth, aliases and cost.
    const door = createGraphQLDoor({ ...gateway.config, schema, services: gateway.services, limiter: createRateLimiter(gateway.config.rateLimits, gateway.clock), logger: createLogger('silent'), now: () => gateway.clock.now() });
    const { parse: parseAtTheDoor, validate: validateAtTheDoor } = door.yoga.getEnveloped({});
    for (const o of TRUSTED_OPERATIONS) {
      expect(validate(schema, parse(o.body)), o.name).toEqual([]);
      expect(() => validateAtTheDoor(schema, parseAtTheDoor(o.body)), o.name).not.toThrow();
      expect(validateAtTheDoor(schema, parseAtTheDoor(o.body)), o.name).toEqual([]);
    }
  });

  it('reaches the pages as hashes, and no page module carries a document of its own', async () => {
    const t = await testGateway();
    const served = await t.rest('GET', '/assets/app/operations.js');
    expect(served.status).toBe(200);
    for (const o of TRUSTED_OPERATIONS) expect(served.body).toContain(`"${o.name}": "${o.id}"`);
    for (const name of ['graphql.js', 'order-app.js', 'order-status.js', 'pay.js', 'display.js', 'staff-app.js', 'staff-queue.js', 'staff-dialogs.js', 'staff-options.js', 'staff-notifications.js', 'staff-links.js']) {
      const source = ((await t.rest('GET', `/assets/app/${name}`)).body as string).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gmu, '');
      expect(source, name).not.toMatch(/[`'"]\s*(query|mutation|subscription)\b\s*[\w($]*\s*[({]|[`'"]\{\s*\w+\s*[({]/u);
    }
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS', () => {
  it('is allow unless set; only is accepted; anything else stops start-up naming it', () => {
    expect(loadConfig({}).config.graphqlTrustedDocuments).toBe('allow');
    expect(loadConfig(ONLY).config.graphqlTrustedDocuments).toBe('only');
    expect(() => loadConfig({ GRAPHQL_TRUSTED_DOCUMENTS: 'strict' })).toThrow(/^GRAPHQL_TRUSTED_DOCUMENTS: "strict" must be allow .* or only/u);
  });
});

describe.each(TRANSPORTS)('over %s', (transport) => {
  const repeated = transport === 'node' ? 'fast' : 'yoga';

  it.each([['allow', {}], ['only', ONLY]] as const)('runs a page operation sent by its hash alone (%s), from anyone', async (_mode, env) => {
    const t = await policyGateway(transport, env);
    const first = await t.post(byHash(hashOf(OPTIONS), {}, { operationName: OPTIONS }));
    expect(first).toMatchObject({ status: 200, path: 'yoga' });
    expect(first.body.data.sleeveOptions.sizeChoices.length).toBeGreaterThan(0);
    const again = await t.post(byHash(hashOf(OPTIONS), {}, { operationName: OPTIONS }));
    expect(again).toEqual({ ...first, path: repeated });
    // With variables, and without an operation name.
    const { orderNumber, payToken } = await t.createOrder();
    for (let i = 0; i < 2; i++) {
      const order = await t.post(byHash(hashOf('OrderPageOrder'), { n: orderNumber, t: payToken }));
      expect(order.body.data.order).toMatchObject({ orderNumber, status: 'AWAITING_PAYMENT' });
    }
  });

  it('answers an unknown hash PersistedQueryNotFound, on every try', async () => {
    const t = await policyGateway(transport);
    for (let i = 0; i < 2; i++) {
      const answer = await t.post(byHash(sha256Hex('{ eventInfo }')));
      expect(answer.body.errors).toEqual([expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_NOT_FOUND' }) })]);
      expect(answer.body.data).toBeUndefined();
    }
  });

  it('answers a body with neither text nor hash as yoga always has', async () => {
    const t = await policyGateway(transport);
    const answer = await t.post({ variables: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST' } });
  });

  it('takes a hash over GET too (a query; a mutation stays refused over GET)', async () => {
    const t = await policyGateway(transport);
    const params = (name: string) => ({ operationName: name, extensions: JSON.stringify(byHash(hashOf(name)).extensions) });
    expect((await t.get(params(OPTIONS))).body.data.sleeveOptions.charLimit).toBeGreaterThan(0);
    const mutation = await t.get({ ...params('SetEventInfo'), variables: JSON.stringify({ text: 'x' }) }, { authorization: STAFF });
    expect(mutation.status).toBe(405);
  });

  describe('with only', () => {
    it('refuses text from a caller without the staff token, even text the server has cached from staff', async () => {
      const t = await policyGateway(transport, ONLY);
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const refused = await t.post({ query: TEXT }, headers);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_ONLY' }) })]);
        expect(refused.body.errors[0].message).toMatch(/Only trusted documents are accepted/u);
      }
      // Staff send it (twice: the second is the fast path's over node); strangers are still refused after that.
      const staff = await t.post({ query: TEXT }, { authorization: STAFF });
      expect(staff.body.data.sleeveOptions.charLimit).toBeGreaterThan(0);
      expect(await t.post({ query: TEXT }, { authorization: STAFF })).toEqual({ ...staff, path: repeated });
      for (let i = 0; i < 2; i++) {
        const refused = await t.post({ query: TEXT });
        expect(refused).toMatchObject({ status: 400, path: 'yoga' });
        expect(refused.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
        expect(refused.body.data).toBeUndefined();
      }
    });

    it('refuses APQ registration from a caller without the staff token, so the hash stays unknown', async () => {
      const t = await policyGateway(transport, ONLY);
      const hash = sha256Hex(TEXT);
      const registering = await t.post({ query: TEXT, ...byHash(hash) });
      expect(registering.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
      expect((await t.post(byHash(hash))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      // Staff may register; the hash is then theirs to use, and still not a stranger's.
      expect((await t.post({ query: TEXT, ...byHash(hash) }, { authorization: STAFF })).body.data.sleeveOptions.charLimit).toBeGreaterThan(0);
      expect((await t.post(byHash(hash), { authorization: STAFF })).body.data.sleeveOptions.charLimit).toBeGreaterThan(0);
      expect((await t.post(byHash(hash))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    });
  });

  describe('automatic persisted queries (allow)', () => {
    it('registers text sent with its hash, then runs the hash alone', async () => {
      const t = await policyGateway(transport);
      const hash = sha256Hex(TEXT);
      expect((await t.post(byHash(hash))).body.errors[0].message).toBe('PersistedQueryNotFound');
      const registered = await t.post({ query: TEXT, ...byHash(hash) });
      expect(registered).toMatchObject({ status: 200, path: 'yoga' });
      const first = await t.post(byHash(hash));
      expect(first.body).toEqual(registered.body);
      expect(await t.post(byHash(hash))).toEqual({ ...first, path: repeated });
    });

    it('refuses a hash that is not the text\'s SHA-256, and remembers nothing', async () => {
      const t = await policyGateway(transport);
      const planted = sha256Hex('{ eventInfo }');
      const answer = await t.post({ query: TEXT, ...byHash(planted) });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
      expect((await t.post(byHash(planted))).body.errors[0].message).toBe('PersistedQueryNotFound');
    });
  });
});
