/**
 * What the trusted-documents and production-hardening suites share: a gateway over either transport that says which
 * path answered each request (yoga's pipeline or the fast JSON path), and a graphql-ws client that sends any
 * Subscribe payload (a hash, text, both) and reports the first answer.
 */
import { createClient, type Client, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer } from '../../src/server.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { gatewayCountingYoga, type Transport, type TransportGateway } from '../support/graphql-transports.ts';

export const STAFF = 'Bearer test-admin-token';

export interface Answered {
  status: number;
  body: any;
  /** Which path answered: the fast JSON path only ever answers over node. */
  path: 'yoga' | 'fast';
}

export interface PolicyGateway extends TransportGateway {
  /** POSTs `body` as JSON to /graphql. */
  post(body: unknown, headers?: Record<string, string>): Promise<Answered>;
  /** GET /graphql with these search params. */
  get(params: Record<string, string>, headers?: Record<string, string>): Promise<Answered>;
}

export async function policyGateway(transport: Transport, env: Record<string, string> = {}): Promise<PolicyGateway> {
  const t = await gatewayCountingYoga(transport, env);
  async function answered(send: () => Promise<Response>): Promise<Answered> {
    const before = t.yogaRuns();
    const response = await send();
    return { status: response.status, body: await response.json(), path: t.yogaRuns() === before ? 'fast' : 'yoga' };
  }
  return {
    ...t,
    post: (body, headers = {}) =>
      answered(() =>
        t.request('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
          body: JSON.stringify(body),
        }),
      ),
    get: (params, headers = {}) =>
      answered(() => t.request(`/graphql?${new URLSearchParams(params)}`, { headers: { accept: 'application/graphql-response+json', ...headers } })),
  };
}

/** The body of a persisted query: the hash alone, in APQ's shape. */
export function byHash(sha256Hash: string, variables: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { variables, extensions: { persistedQuery: { version: 1, sha256Hash } }, ...extra };
}

/** A gateway on a real port with graphql-ws clients (anonymous, or with an Authorization value). */
export async function wsGateway(env: Record<string, string> = {}) {
  const t = await testGateway({ env });
  const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  return {
    ...t,
    server,
    client(authorization?: string): Client {
      const client = createClient({
        url: `ws://127.0.0.1:${server.port}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        ...(authorization ? { connectionParams: { authorization } } : {}),
      });
      afterThisTest(async () => client.dispose());
      return client;
    },
  };
}

/** The first answer to a Subscribe message: its first result, or the errors it was refused with. */
export function firstAnswer(client: Client, payload: SubscribePayload): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
    const stop = client.subscribe(payload, {
      next: (result) => {
        clearTimeout(timer);
        stop();
        resolve(result as { data?: any; errors?: any[] });
      },
      error: (error) => {
        clearTimeout(timer);
        if (Array.isArray(error)) resolve({ errors: error });
        else reject(error instanceof Error ? error : new Error(String(error)));
      },
      complete: () => {},
    });
  });
}
