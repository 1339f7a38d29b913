/**
 * GRAPHQL_PRODUCTION (docs/graphql.md#production): introspection for staff only, no "Did you mean …", and aliases of
 * __typename counted by the alias limit (always). Each case runs over the in-memory gateway (yoga) and a real port,
 * where a repeated request is answered by the fast JSON path — asserted by `path` — and over graphql-ws.
 */
import { describe, expect, it } from 'vitest';
import { startupRefusal } from '../support/process.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { TRANSPORTS } from '../support/graphql-transports.ts';
import { firstAnswer, policyGateway, STAFF, wsGateway } from './document-policy-support.ts';

const PRODUCTION = { GRAPHQL_PRODUCTION: 'on' };
const SCHEMA = '{ __schema { queryType { name } } }';
const TYPE = '{ __type(name: "Order") { fields { name } } }';
const FIELD_TYPO = '{ sleeveOptions { sizez } }';
const ENUM_TYPO = 'mutation { payOrder(orderNumber: "1", input: { t: "x", method: VENDOR_CARDD }) { __typename } }';
/** Two operations: graphql-js runs it (not graphql-jit), and its variable coercion suggests enum values. */
const COERCION = { query: 'mutation Pay($i: PayInput!) { payOrder(orderNumber: "1", input: $i) { __typename } } query Info { eventInfo }', operationName: 'Pay', variables: { i: { t: 'x', method: 'VENDOR_CARDD' } } };
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
const messages = (body: { errors?: Array<{ message: string }> }) => (body.errors ?? []).map((e) => e.message).join('\n');

describe('GRAPHQL_PRODUCTION', () => {
  it('is off unless set, on where NODE_ENV=production unless set off; anything but on/off stops start-up naming it', () => {
    expect(loadConfig({}).config.graphqlProduction).toBe(false);
    expect(loadConfig(PRODUCTION).config.graphqlProduction).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).config.graphqlProduction).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHQL_PRODUCTION: 'off' }).config.graphqlProduction).toBe(false);
    expect(() => loadConfig({ GRAPHQL_PRODUCTION: 'yes' })).toThrow(/^GRAPHQL_PRODUCTION: "yes" must be on .* or off/u);
    const result = startupRefusal({ GRAPHQL_TRUSTED_DOCUMENTS: 'some' });
    expect(result.status).toBe(2);
    expect(result.lines).toEqual([expect.stringMatching(/GRAPHQL_TRUSTED_DOCUMENTS: "some" must be allow/u)]);
  });
});

describe.each(TRANSPORTS)('over %s', (transport) => {
  const repeated = transport === 'node' ? 'fast' : 'yoga';

  it('refuses introspection to callers without the staff token in production, even a document cached from staff', async () => {
    const t = await policyGateway(transport, PRODUCTION);
    for (const query of [SCHEMA, TYPE]) {
      const staff = await t.post({ query }, { authorization: STAFF });
      expect(staff.body.data, query).toBeDefined();
      expect(await t.post({ query }, { authorization: STAFF })).toEqual({ ...staff, path: repeated });
      for (const headers of [{}, { authorization: 'Bearer wrong' }, {}] as Record<string, string>[]) {
        const refused = await t.post({ query }, headers);
        expect(refused).toMatchObject({ status: 400, path: 'yoga' });
        expect(refused.body.data).toBeUndefined();
        expect(messages(refused.body)).toMatch(/GraphQL introspection has been disabled, but the requested query contained the field "__(schema|type)"/u);
      }
    }
    // __typename is no introspection of the schema: clients' caches ask for it.
    const typename = await t.post({ query: '{ __typename sleeveOptions { __typename } }' });
    expect(typename.body.data).toEqual({ __typename: 'Query', sleeveOptions: { __typename: 'SleeveOptions' } });
  });

  it('keeps introspection for everyone when off (the default)', async () => {
    const t = await policyGateway(transport);
    for (let i = 0; i < 2; i++) expect((await t.post({ query: SCHEMA })).body.data.__schema.queryType.name).toBe('Query');
  });

  it.each([
    ['a field', FIELD_TYPO, 'Cannot query field "sizez" on type "SleeveOptions".'],
    ['an enum value', ENUM_TYPO, 'Value "VENDOR_CARDD" does not exist in "PayMethod" enum.'],
  ])('says no "Did you mean" for %s in production, every time, and still does when off', async (_what, query, production) => {
    const on = await policyGateway(transport, PRODUCTION);
    for (let i = 0; i < 2; i++) {
      const answer = await on.post({ query });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ message: production })]);
    }
    const off = await policyGateway(transport);
    expect(messages((await off.post({ query })).body)).toMatch(/Did you mean/u);
  });

  it('says no "Did you mean" in a variable\'s coercion error from execution in production', async () => {
    const on = await policyGateway(transport, PRODUCTION);
    for (let i = 0; i < 2; i++) {
      const text = messages((await on.post(COERCION)).body);
      expect(text).toMatch(/Value "VENDOR_CARDD" does not exist in "PayMethod" enum\.$/mu);
      expect(text).not.toMatch(/Did you mean/u);
    }
    const off = await policyGateway(transport);
    expect(messages((await off.post(COERCION)).body)).toMatch(/Did you mean the enum value "VENDOR_CARD"\?/u);
  });

  it.each([['off', {}], ['on', PRODUCTION]] as const)('counts aliases of __typename against the alias limit (production %s)', async (_mode, env) => {
    const t = await policyGateway(transport, env);
    for (let i = 0; i < 2; i++) {
      const refused = await t.post({ query: aliases(21) });
      expect(refused.body.data).toBeUndefined();
      expect(messages(refused.body)).toContain('Aliases limit of 20 exceeded, found 21.');
    }
    const allowed = await t.post({ query: aliases(20) });
    expect(Object.keys(allowed.body.data)).toHaveLength(20);
    expect(await t.post({ query: aliases(20) })).toEqual({ ...allowed, path: repeated });
  });
});

describe('over graphql-ws, in production', () => {
  it('refuses introspection without the staff token and keeps it with the token', async () => {
    const t = await wsGateway(PRODUCTION);
    const refused = await firstAnswer(t.client(), { query: SCHEMA });
    expect(refused.errors![0].message).toMatch(/introspection has been disabled/u);
    expect((await firstAnswer(t.client(STAFF), { query: SCHEMA })).data.__schema.queryType.name).toBe('Query');
  });

  it('says no "Did you mean", in validation or in execution', async () => {
    const t = await wsGateway(PRODUCTION);
    const client = t.client();
    expect((await firstAnswer(client, { query: FIELD_TYPO })).errors).toEqual([expect.objectContaining({ message: 'Cannot query field "sizez" on type "SleeveOptions".' })]);
    const coerced = await firstAnswer(client, COERCION);
    expect(messages(coerced as never)).toMatch(/does not exist in "PayMethod" enum\.$/mu);
    expect(messages(coerced as never)).not.toMatch(/Did you mean/u);
    expect((await firstAnswer(client, { query: aliases(21) })).errors![0].message).toContain('Aliases limit of 20 exceeded');
  });
});
