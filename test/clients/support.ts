/**
 * What the real-client suites share: a gateway on a real port (support/live-server.ts), graphql-ws clients for it
 * as a frontend on Node 20 makes them (`webSocketImpl` from `ws`; staff send the token in connectionParams), a
 * fetch that counts what a client sends over HTTP (so a test can tell a cache update from a refetch), and
 * `possibleTypes` for Apollo's cache derived from the checked-in schema, as GraphQL Code Generator's
 * fragment-matcher does it (that is the schema's shape, not a type policy).
 */
import { readFileSync } from 'node:fs';
import { buildSchema, isAbstractType } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { SCHEMA_FILE } from '../../schema/print.ts';
import { afterThisTest } from '../support/gateway.ts';
import { liveServer, type LiveServer } from '../support/live-server.ts';

export interface ClientServer extends LiveServer {
  httpUrl: string;
  /** A graphql-ws client of this server, staff when `adminToken` is given; disposed after the test. */
  wsClient(adminToken?: string): Client;
}

export async function clientServer(): Promise<ClientServer> {
  const live = await liveServer();
  return {
    ...live,
    httpUrl: `${live.server.url}/graphql`,
    wsClient(adminToken) {
      const client = createClient({
        url: live.wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        ...(adminToken ? { connectionParams: { authorization: `Bearer ${adminToken}` } } : {}),
      });
      afterThisTest(async () => client.dispose());
      return client;
    },
  };
}

/** A fetch that sends for real and counts the GraphQL operations it sent, by operation name. */
export function countingFetch(): { fetch: typeof fetch; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    fetch: async (input, init) => {
      // A POST's JSON body, or a GET's search parameters (urql sends queries by GET when they fit the URL).
      const params: { operationName?: string | null; query?: string | null } =
        typeof init?.body === 'string' ? JSON.parse(init.body) : Object.fromEntries(new URL(String(input)).searchParams);
      // Apollo sends operationName; urql sends only the document, which names it.
      sent.push(params.operationName ?? /^\s*(?:query|mutation|subscription)\s+(\w+)/u.exec(params.query ?? '')?.[1] ?? '(anonymous)');
      return fetch(input, init);
    },
  };
}

/** Every union and interface of schema/schema.graphql with the object types it may be. */
export function possibleTypesOfSchema(): Record<string, string[]> {
  const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
  return Object.fromEntries(
    Object.values(schema.getTypeMap())
      .filter(isAbstractType)
      .map((type) => [type.name, schema.getPossibleTypes(type).map((member) => member.name)]),
  );
}

/** Resolves with the first value `take` accepts from a stream of values, or rejects after `ms`. */
export function waitFor<T, R>(subscribe: (next: (value: T) => void) => () => void, take: (value: T) => R | undefined, ms = 5_000): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`nothing accepted within ${ms} ms`));
    }, ms);
    stop = subscribe((value) => {
      const taken = take(value);
      if (taken === undefined) return;
      clearTimeout(timer);
      queueMicrotask(() => stop());
      resolve(taken);
    });
  });
}
