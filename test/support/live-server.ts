/**
 * A gateway on a real port (0) with a real graphql-ws client, and a queue that keeps every message of a
 * subscription so none is missed between awaits. All of it is closed after each test.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../src/server.ts';
import { afterThisTest, testGateway, type TestGateway } from './gateway.ts';

export interface LiveServer extends TestGateway {
  server: RunningServer;
  wsUrl: string;
  client(authorization?: string): Client;
}

export async function liveServer(options: Parameters<typeof testGateway>[0] = {}): Promise<LiveServer> {
  const t = await testGateway(options);
  const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  const wsUrl = `ws://127.0.0.1:${server.port}/graphql`;
  return {
    ...t,
    server,
    wsUrl,
    client(authorization) {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0, // fail right away
        lazy: false,
        ...(authorization ? { connectionParams: { authorization } } : {}),
      });
      afterThisTest(async () => client.dispose());
      return client;
    },
  };
}

export interface Received<T> {
  /** The next message, or a rejection after `ms`. */
  next(ms?: number): Promise<T>;
  /** Resolves when the server completes the stream. */
  completed: Promise<void>;
  /** Rejects with the GraphQL errors if the subscription fails. */
  failed: Promise<unknown>;
  all: T[];
  dispose(): void;
}

export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown> = {}, operationName?: string): Received<T> {
  const all: T[] = [];
  const waiting: Array<(value: T) => void> = [];
  let cursor = 0;
  let complete!: () => void;
  let fail!: (error: unknown) => void;
  const completed = new Promise<void>((resolve) => (complete = resolve));
  const failed = new Promise<unknown>((resolve) => (fail = resolve));
  const dispose = client.subscribe<T>(
    { query, variables, ...(operationName ? { operationName } : {}) },
    {
      next: (message) => {
        if (message.errors) fail(message.errors);
        const data = message.data as T;
        all.push(data);
        waiting.shift()?.(data);
      },
      error: (error) => fail(error),
      complete: () => complete(),
    },
  );
  return {
    all,
    completed,
    failed,
    dispose,
    next(ms = 5_000) {
      if (cursor < all.length) return Promise.resolve(all[cursor++]!);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message within ${ms} ms`)), ms);
        waiting.push((value) => {
          clearTimeout(timer);
          cursor++;
          resolve(value);
        });
      });
    },
  };
}
