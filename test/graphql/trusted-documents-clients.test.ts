/**
 * Trusted documents with real clients (docs/graphql.md#trusted-documents): graphql-ws, the pages' subscription
 * transport, sends hashes too (its Subscribe message must carry a string `query`: empty, the hash says which);
 * graphql-sse; and Apollo Client's own persisted-query link, which speaks APQ against this server as it would
 * against Apollo's.
 */
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createClient as createSseClient } from 'graphql-sse';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../scripts/trusted-documents.ts';
import { TRUSTED_OPERATIONS } from '../../src/pages/trusted-operations.ts';
import { byHash, firstAnswer, STAFF, wsGateway } from './document-policy-support.ts';

const hashOf = (name: string) => TRUSTED_OPERATIONS.find((o) => o.name === name)!.id;
const ONLY = { GRAPHQL_TRUSTED_DOCUMENTS: 'only' };
const TEXT = 'subscription { sleeveOptionsChanged { charLimit } }';
const byHashOverWs = (hash: string, variables: Record<string, unknown> = {}) => ({ query: '', ...byHash(hash, variables) });

describe('graphql-ws', () => {
  it.each([['allow', {}], ['only', ONLY]] as const)('follows a page subscription sent by its hash alone (%s)', async (_mode, env) => {
    const t = await wsGateway(env);
    const { orderNumber, payToken } = await t.createOrder();
    const updates = await firstAnswer(t.client(), byHashOverWs(hashOf('OrderPageUpdates'), { n: orderNumber, t: payToken }));
    expect(updates.data.orderUpdates).toMatchObject({ orderNumber, status: 'AWAITING_PAYMENT' });
    const board = await firstAnswer(t.client(), byHashOverWs(hashOf('PickupBoard')));
    expect(board.data.pickupBoard.board).toEqual([]);
    // A staff page's subscription, with the token in connectionParams.
    const events = t.client(STAFF);
    const options = await firstAnswer(events, byHashOverWs(hashOf('StaffOptionsChanged')));
    expect(options.data.sleeveOptionsChanged.version).toBeGreaterThan(0);
  });

  it('answers an unknown hash PersistedQueryNotFound, and keeps the socket for the next operation', async () => {
    const t = await wsGateway();
    const client = t.client();
    const unknown = await firstAnswer(client, byHashOverWs(sha256Hex(TEXT)));
    expect(unknown.errors).toEqual([expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })]);
    expect((await firstAnswer(client, byHashOverWs(hashOf('PickupBoard')))).data.pickupBoard).toBeDefined();
  });

  it('with only, refuses text without the staff token and runs it with the token', async () => {
    const t = await wsGateway(ONLY);
    const refused = await firstAnswer(t.client('Bearer wrong'), { query: TEXT });
    expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_ONLY' }) })]);
    expect((await firstAnswer(t.client(STAFF), { query: TEXT })).data.sleeveOptionsChanged.charLimit).toBeGreaterThan(0);
    // Registration is text too: refused to strangers.
    const registering = await firstAnswer(t.client(), { query: TEXT, ...byHash(sha256Hex(TEXT)) });
    expect(registering.errors![0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('registers APQ text with its hash, and the hash then works over HTTP as well', async () => {
    const t = await wsGateway();
    const hash = sha256Hex(TEXT);
    const client = t.client();
    expect((await firstAnswer(client, byHashOverWs(hash))).errors![0].message).toBe('PersistedQueryNotFound');
    expect((await firstAnswer(client, { query: TEXT, ...byHash(hash) })).data.sleeveOptionsChanged.charLimit).toBeGreaterThan(0);
    expect((await firstAnswer(client, byHashOverWs(hash))).data.sleeveOptionsChanged.charLimit).toBeGreaterThan(0);
    const bad = await firstAnswer(client, { query: TEXT, ...byHash(sha256Hex('{ eventInfo }')) });
    expect(bad.errors![0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
  });
});

describe('graphql-sse (distinct connections mode)', () => {
  it('follows a page subscription sent by its hash, and is refused text with only', async () => {
    const t = await wsGateway(ONLY);
    const sse = createSseClient({ url: `${t.server.url}/graphql`, retryAttempts: 0 });
    const first = await new Promise<any>((resolve, reject) => {
      const stop = sse.subscribe(byHashOverWs(hashOf('OrderPageOptionsChanged')), {
        next: (value) => (stop(), resolve(value)),
        error: reject,
        complete: () => {},
      });
    });
    expect(first.data.sleeveOptionsChanged.sizeChoices.length).toBeGreaterThan(0);
    const refused = await new Promise<any>((resolve) => {
      sse.subscribe({ query: TEXT }, { next: resolve, error: resolve, complete: () => {} });
    });
    // Refused before any stream: the client reports the 400 answer, whose body says why.
    expect(refused.response.status).toBe(400);
    expect(await refused.response.text()).toContain('PERSISTED_QUERY_ONLY');
    sse.dispose();
  });
});

describe("Apollo Client's persisted-query link (APQ)", () => {
  it('sends the hash, is told it is unknown, sends the text once, and later clients send the hash alone', async () => {
    const t = await wsGateway();
    const sent: Array<{ query: boolean; hash: boolean }> = [];
    const recording: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { query?: string; extensions?: { persistedQuery?: unknown } };
      sent.push({ query: typeof body.query === 'string', hash: body.extensions?.persistedQuery !== undefined });
      return fetch(input, init);
    };
    const client = () =>
      new ApolloClient({
        cache: new InMemoryCache(),
        link: ApolloLink.from([new PersistedQueryLink({ sha256: sha256Hex }), new HttpLink({ uri: `${t.server.url}/graphql`, fetch: recording })]),
      });
    const query = gql`query Options { sleeveOptions { charLimit } }`;
    expect((await client().query({ query })).data).toMatchObject({ sleeveOptions: { charLimit: expect.any(Number) } });
    expect(sent).toEqual([{ query: false, hash: true }, { query: true, hash: true }]);
    expect((await client().query({ query })).data).toMatchObject({ sleeveOptions: { charLimit: expect.any(Number) } });
    expect(sent.slice(2)).toEqual([{ query: false, hash: true }]);
  });
});
