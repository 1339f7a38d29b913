/**
 * A GraphQL field counts against the REST path's limits wherever it stands in the document
 * (docs/edge.md#rate-limits-at-a-venue, issue 15): inline fragments, named fragments and aliases are no way around a
 * limit. Over both transports (the node one runs the fast JSON path on the second request of a document).
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS, type TransportGateway } from '../support/graphql-transports.ts';

const input = (email: string) => ({ ...VALID_ORDER, email });

const DOCUMENTS: Record<string, string> = {
  'an inline fragment': 'mutation ($input: OrderInput!) { ...on Mutation { createOrder(input: $input) { __typename } } }',
  'an inline fragment without a type': 'mutation ($input: OrderInput!) { ... @include(if: true) { createOrder(input: $input) { __typename } } }',
  'a named fragment': 'mutation ($input: OrderInput!) { ...Make } fragment Make on Mutation { createOrder(input: $input) { __typename } }',
  'nested fragments': 'mutation ($input: OrderInput!) { ...A } fragment A on Mutation { ...B } fragment B on Mutation { made: createOrder(input: $input) { __typename } }',
  'an alias': 'mutation ($input: OrderInput!) { made: createOrder(input: $input) { __typename } }',
};

async function post(t: TransportGateway, query: string, variables: Record<string, unknown>) {
  const response = await t.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

async function orderCount(t: TransportGateway): Promise<number> {
  const res = await t.gql('{ orders(first: 200) { edges { node { orderNumber } } } }', undefined, { token: t.adminToken });
  return res.data.orders.edges.length;
}

describe.each(TRANSPORTS)('over %s', (transport) => {
  for (const [how, query] of Object.entries(DOCUMENTS)) {
    it(`counts createOrder inside ${how}, and refuses it once over the limit (nothing created)`, async () => {
      const t = await gatewayOver(transport, { env: { RATE_LIMIT_WRITE: '2' } });
      // Twice, so the node transport's second request of the document runs the fast JSON path.
      for (const email of ['a@example.com', 'b@example.com']) {
        const ok = await post(t, query, { input: input(email) });
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      }
      for (const email of ['c@example.com', 'd@example.com']) {
        const limited = await post(t, query, { input: input(email) });
        expect(limited.status).toBe(429);
        expect(limited.retryAfter).toMatch(/^[1-9]\d*$/u);
        expect(limited.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
        expect(limited.body.data ?? null).toBeNull();
      }
      expect(await orderCount(t)).toBe(2);
    });
  }

  it('counts every alias of a field: two creates in one document over a limit of one are refused', async () => {
    const t = await gatewayOver(transport, { env: { RATE_LIMIT_WRITE: '1' } });
    const query = 'mutation ($a: OrderInput!, $b: OrderInput!) { a: createOrder(input: $a) { __typename } ...on Mutation { b: createOrder(input: $b) { __typename } } }';
    const res = await post(t, query, { a: input('a@example.com'), b: input('b@example.com') });
    expect(res.status).toBe(429);
    expect(await orderCount(t)).toBe(0);
  });

  it('counts per email like REST: one email hammered through fragments is limited, another email is not', async () => {
    const t = await gatewayOver(transport, { env: { RATE_LIMIT_SUBJECT_WRITE: '3' } });
    const query = DOCUMENTS['a named fragment']!;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(t, query, { input: input(i % 2 ? 'ADA@example.com' : 'ada@example.com') })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The REST door shares the same count for that email.
    expect((await t.rest('POST', '/api/orders', input('ada@example.com'))).status).toBe(429);
    expect((await post(t, query, { input: input('grace@example.com') })).status).toBe(200);
  });

  it('does not count a field switched off by @skip', async () => {
    const t = await gatewayOver(transport, { env: { RATE_LIMIT_WRITE: '1' } });
    const query = 'mutation ($input: OrderInput!, $skip: Boolean!) { createOrder(input: $input) @skip(if: $skip) { __typename } __typename }';
    for (let i = 0; i < 3; i++) expect((await post(t, query, { input: input(`skip${i}@example.com`), skip: true })).status).toBe(200);
    expect((await post(t, query, { input: input('counted@example.com'), skip: false })).status).toBe(200);
    expect((await post(t, query, { input: input('over@example.com'), skip: false })).status).toBe(429);
  });

  it('counts the options against no limit, as REST (docs/edge.md#options-reads)', async () => {
    const t = await gatewayOver(transport, { env: { RATE_LIMIT_READ: '1' } });
    for (let i = 0; i < 3; i++) expect((await post(t, '{ sleeveOptions { charLimit } }', {})).status).toBe(200);
  });
});
