/**
 * A real merchant endpoint for the notification tests: node:http on port 0 that records every request, checks
 * every body against its JSON schema (src/notifications/schemas.ts) with ajv, and can be told to fail the next N
 * requests, to answer with Retry-After, or to never answer. Closed (sockets and all) after each test.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Ajv } from 'ajv';
import { NOTIFICATION_SCHEMAS } from '../../src/notifications/schemas.ts';
import { afterThisTest } from './gateway.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body text (what signatures are computed over). */
  raw: string;
  body: any;
  /** Wall time it arrived (performance.now()). */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Bodies that broke their path's JSON schema (should stay empty). */
  schemaErrors: string[];
  /** The next `count` requests get `answer` (default 500) instead of 200. */
  failNext(count: number, answer?: Answer): void;
  /** While on, requests are recorded but never answered (a merchant that hangs). */
  hang(on: boolean): void;
  /** Answers every request held while hanging with `answer`, 200 by default (those whose sender died just fail). */
  release(answer?: Answer): void;
  /** The first request of each `webhook-id`, in order of arrival (a retry or redelivery repeats an id). */
  distinct(): ReceivedRequest[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, ms?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = Object.fromEntries(Object.entries(NOTIFICATION_SCHEMAS).map(([path, schema]) => [path, ajv.compile(schema)]));

/** Validates one body against the schema of its path; returns the problems (none when valid). */
export function schemaProblems(path: string, body: unknown): string[] {
  const validate = validators[path];
  if (!validate) return [`no schema for ${path}`];
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${path}${e.instancePath} ${e.message}`);
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const schemaErrors: string[] = [];
  const failures: Answer[] = [];
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  let hanging = false;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        schemaErrors.push(`${req.url}: not JSON`);
      }
      schemaErrors.push(...schemaProblems(req.url ?? '', body));
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, at: performance.now() });
      if (hanging) {
        held.push(res);
        return;
      }
      const answer = failures.shift() ?? { status: 200 };
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    schemaErrors,
    failNext(count, answer = { status: 500, body: 'not now' }) {
      for (let i = 0; i < count; i++) failures.push(answer);
    },
    hang(on) {
      hanging = on;
    },
    release(answer = { status: 200 }) {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    },
    distinct() {
      const seen = new Set<unknown>();
      return requests.filter((r) => !seen.has(r.headers['webhook-id']) && seen.add(r.headers['webhook-id']));
    },
    async waitFor(count, ms = 5_000) {
      const until = Date.now() + ms;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`the receiver got ${requests.length} of ${count} requests within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return requests;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  afterThisTest(() => receiver.close());
  return receiver;
}

/** Polls `check` (wall time, bounded) until it returns something truthy. */
export async function eventually<T>(check: () => Promise<T> | T, ms = 5_000): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
