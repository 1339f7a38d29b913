/**
 * graphql-sse's client in its single connection mode, for tests, and one operation's results as they come.
 * The client is disposed after the test once its DELETEs are answered: a DELETE still in flight when the client is
 * disposed is aborted, and graphql-sse then rejects a promise nobody holds.
 */
import { createClient, type Client, type ExecutionResult, type RequestParams } from 'graphql-sse';
import { afterThisTest } from './gateway.ts';

export type SingleConnectionClient = Client<true>;

export function singleConnectionClient(
  url: string,
  fetchFn: typeof fetch = fetch,
  options: { retryAttempts?: number; headers?: Record<string, string> } = {},
): SingleConnectionClient {
  const deletes = new Set<Promise<unknown>>();
  const tracked: typeof fetch = (input, init) => {
    const answer = fetchFn(input, init);
    if (init?.method === 'DELETE') {
      const settled = answer.then(() => undefined, () => undefined);
      deletes.add(settled);
      void settled.then(() => deletes.delete(settled));
    }
    return answer;
  };
  const client = createClient({ url, singleConnection: true, retryAttempts: 0, ...options, fetchFn: tracked });
  afterThisTest(async () => {
    await Promise.all([...deletes]);
    client.dispose();
  });
  return client;
}

export interface Followed {
  results: Array<ExecutionResult<any, unknown>>;
  /** The results once the server completes the operation; rejects with the client's error. */
  done: Promise<Array<ExecutionResult<any, unknown>>>;
  /** Unsubscribes (the client sends the DELETE) and waits until it has gone out and been answered. */
  stop(): Promise<void>;
  /** Waits until `check` holds for the results so far, or throws after `ms`. */
  until(check: (all: Array<ExecutionResult<any, unknown>>) => boolean, ms?: number): Promise<void>;
}

export function follow(client: SingleConnectionClient, request: RequestParams): Followed {
  const results: Array<ExecutionResult<any, unknown>> = [];
  let unsubscribe!: () => void;
  let ended = false;
  const done = new Promise<Array<ExecutionResult<any, unknown>>>((resolve, reject) => {
    unsubscribe = client.subscribe(request, {
      next: (result) => void results.push(result),
      error: (error) => ((ended = true), reject(error)),
      complete: () => ((ended = true), resolve(results)),
    });
  });
  const until = async (check: (all: Array<ExecutionResult<any, unknown>>) => boolean, ms = 5_000) => {
    for (const by = Date.now() + ms; !check(results); await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > by) throw new Error(`not yet, after ${ms} ms: ${JSON.stringify(results)}`);
    }
  };
  return {
    results,
    done,
    until,
    async stop() {
      unsubscribe();
      // The client completes the sink once its DELETE is answered.
      for (const by = Date.now() + 5_000; !ended && Date.now() < by; ) await new Promise((r) => setTimeout(r, 10));
    },
  };
}

/** A stream of the single connection mode driven by hand (fetch), for what a client library hides. */
export interface RawStream {
  token: string;
  /** The token's header, for a POST or DELETE sent to any instance. */
  headers: Record<string, string>;
  status: number;
  /** Everything the stream has carried so far. */
  text(): string;
  /** Resolves once the stream has carried `part`; throws after `ms`. */
  until(part: string, ms?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** POSTs `request` as operation `operationId` to `base` (another instance, perhaps): the answer. */
  post(base: string, operationId: string, request: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
}

/** Reserves a stream on `reserveAt` and opens it on `openAt` (the same instance unless given). */
export async function rawStream(reserveAt: string, openAt = reserveAt): Promise<RawStream> {
  const token = await (await fetch(`${reserveAt}/graphql`, { method: 'PUT' })).text();
  const headers = { 'x-graphql-event-stream-token': token };
  const response = await fetch(`${openAt}/graphql`, { headers: { ...headers, accept: 'text/event-stream' } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const ended = (async () => {
    for (let step = await reader.read(); !step.done; step = await reader.read()) text += decoder.decode(step.value, { stream: true });
  })().catch(() => undefined);
  return {
    token,
    headers,
    status: response.status,
    text: () => text,
    ended,
    async until(part, ms = 10_000) {
      for (const by = Date.now() + ms; !text.includes(part); await new Promise((r) => setTimeout(r, 10))) {
        if (Date.now() > by) throw new Error(`the stream has not carried ${part} after ${ms} ms: ${text}`);
      }
    },
    post: (base, operationId, request) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ...request, extensions: { operationId } }),
      }),
    close: () => reader.cancel().catch(() => undefined),
  };
}
