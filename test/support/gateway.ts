/**
 * An in-memory gateway per test (no socket), a manual clock, and small helpers to call both doors.
 * Everything created here is disposed after each test.
 */
import { expect } from 'vitest';
import { createManualClock, type ManualClock } from '../../src/kernel/clock.ts';
import { createGateway, startServer, type Gateway, type GatewayOptions } from '../../src/server.ts';
import { afterThisTest } from './leftovers.ts';
import { expectDocumentedAnswer } from './openapi-answers.ts';
import { pooledBackendEnv } from './schema-pool.ts';

// The suites' one way to undo what a test made, imported from here since before it had a module of its own.
export { afterThisTest };

export interface TestGateway {
  gateway: Gateway;
  clock: ManualClock;
  adminToken: string;
  /** The bootstrap platform site (VENDOR_SITE_ID) and its `Authorization: Basic …` value (docs/platform.md#credentials). */
  siteId: string;
  siteAuthorization: string;
  /** Calls a REST path; returns status, headers and the parsed JSON (or text) body. */
  rest(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RestResult>;
  /** Creates an order through REST (VALID_ORDER with `change` applied), expecting 201. */
  createOrder(change?: Record<string, unknown>): Promise<{ orderNumber: string; payToken: string }>;
  /** Runs a GraphQL operation through the real /graphql door. */
  gql<T = any>(query: string, variables?: Record<string, unknown>, options?: { token?: string }): Promise<GqlResult<T>>;
}

export interface RestResult {
  status: number;
  headers: Headers;
  body: any;
}

export interface GqlResult<T> {
  status: number;
  data: T;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, unknown> }>;
}

export const VALID_ORDER = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  size: '13-inch',
  font: 'Block',
  thread: 'Gold',
  stitchText: 'ADA 1815',
} as const;

export async function testGateway(
  options: { env?: Record<string, string>; clock?: ManualClock } & Omit<GatewayOptions, 'env' | 'clock'> = {},
): Promise<TestGateway> {
  const clock = options.clock ?? createManualClock();
  const adminToken = options.env?.ADMIN_TOKEN ?? 'test-admin-token';
  const siteId = options.env?.VENDOR_SITE_ID ?? TEST_SITE_ID;
  const apiKey = options.env?.VENDOR_API_KEY ?? TEST_API_KEY;
  // A test that names its own database (a SQLite file) keeps it; the others run on this run's backend.
  const backend = options.env?.DATABASE_URL ? null : await pooledBackendEnv();
  // Given back (or dropped) even when the gateway fails to start; after it is disposed else.
  if (backend) afterThisTest(backend.cleanup);
  const gateway = await createGateway({
    ...options,
    clock,
    env: {
      ADMIN_TOKEN: adminToken,
      VENDOR_SITE_ID: siteId,
      VENDOR_API_KEY: apiKey,
      PUBLIC_URL: 'http://sleeve.test',
      // The suites' merchant endpoints are local receivers; the default (public addresses only) is tested where named.
      ENDPOINT_ALLOWED_NETWORKS: 'loopback',
      ...backend?.env,
      ...options.env,
    },
  });
  afterThisTest(() => gateway.dispose());

  const send = PRODUCTION_ENTRY ? overProductionEntry(gateway) : (path: string, init: RequestInit) => gateway.fetch(new Request(`http://sleeve.test${path}`, init));
  const { rest, gql, createOrder } = doorHelpers(send);
  const siteAuthorization = basicAuth(siteId, apiKey);
  return { gateway, clock, adminToken, siteId, siteAuthorization, rest, gql, createOrder };
}

/**
 * SLEEVE_TEST_ENTRY=node (vitest's `production-entry` project): the GraphQL suites run again with `gql` sent through
 * the production entry — the server's node:http handler on a real port — and each document primed first, so that
 * the fast JSON path (graphql-server/fast-path.ts), not yoga, answers what the test asserts on. Priming sends the
 * document under an operation name it does not hold: yoga parses and validates it (filling the cache the fast path
 * reads) and runs nothing. REST stays in memory here; test/rest covers its node adapter.
 */
const PRODUCTION_ENTRY = process.env.SLEEVE_TEST_ENTRY === 'node';
const PRIMING_NAME = '__primeTheFastPath';

function overProductionEntry(gateway: Gateway): (path: string, init: RequestInit) => Promise<Response> {
  let server: Promise<string> | undefined;
  const primed = new Set<string>();
  const inMemory = (path: string, init: RequestInit) => gateway.fetch(new Request(`http://sleeve.test${path}`, init));
  return async (path, init) => {
    if (path !== '/graphql' || init.method !== 'POST') return inMemory(path, init);
    server ??= startServer(gateway, { port: 0, host: '127.0.0.1' }).then((running) => {
      afterThisTest(() => running.close(1_000));
      return running.url;
    });
    const url = `${await server}/graphql`;
    const { query } = JSON.parse(String(init.body)) as { query: string };
    if (!primed.has(query)) {
      primed.add(query);
      const priming = JSON.stringify({ query, operationName: PRIMING_NAME });
      await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: priming })).text();
    }
    return fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  };
}

/**
 * `rest`, `gql` and `createOrder` over any way of sending a request (the in-memory gateway's fetch here; a real port in
 * support/graphql-transports.ts), so every suite's helpers behave alike whatever the transport.
 */
export function doorHelpers(send: (path: string, init: RequestInit) => Promise<Response>): Pick<TestGateway, 'rest' | 'gql' | 'createOrder'> {
  async function rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResult> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers['content-type'] ??= 'application/json';
    }
    const response = await send(path, init);
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    // Every REST answer of the suites must be one /openapi.json describes (docs/agents.md#openapi-document).
    expectDocumentedAnswer(method, path, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  async function gql<T = any>(query: string, variables?: Record<string, unknown>, { token }: { token?: string } = {}): Promise<GqlResult<T>> {
    const response = await send('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await response.json()) as { data: T; errors?: GqlResult<T>['errors'] };
    return { status: response.status, ...json };
  }

  async function createOrder(change: Record<string, unknown> = {}) {
    const res = await rest('POST', '/api/orders', { ...VALID_ORDER, ...change });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { orderNumber: res.body.orderNumber as string, payToken: res.body.payToken as string };
  }

  return { rest, gql, createOrder };
}

export const TEST_SITE_ID = 'site_test';
export const TEST_API_KEY = 'test-api-key';

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
