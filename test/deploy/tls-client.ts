/**
 * Clients that reach nginx over real TLS and verify its certificate against the test's own self-signed CA, so no
 * check is switched off anywhere (not NODE_TLS_REJECT_UNAUTHORIZED, not rejectUnauthorized): node:https for plain
 * requests and Server-Sent Events, `ws` for graphql-ws. A request may leave from another loopback address
 * (`from: '127.0.0.2'`), which is how the suite shows nginx forwarding distinct client addresses.
 */
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { afterThisTest } from '../support/gateway.ts';

export interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The local address the connection leaves from. */
  from?: string;
}

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  json(): any;
}

/** `silentMs`: how long the connection may carry nothing before it is given up (0: as long as the server keeps it). */
function open(ca: string, url: string, { method = 'GET', headers = {}, body, from }: Sent, silentMs = 10_000): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // agent: false, a connection per request: nothing is left open after the test, and `from` is always honoured.
    const req = httpsRequest(url, { method, headers, ca, agent: false, ...(from ? { localAddress: from } : {}) }, resolve);
    if (silentMs > 0) req.setTimeout(silentMs, () => req.destroy(new Error(`${method} ${url}: nothing for ${silentMs / 1000} s`)));
    req.once('error', reject);
    req.end(body);
  });
}

export interface EventStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The next `event: next` data, parsed; rejects after `ms` or when the stream ends first. */
  next(ms?: number): Promise<any>;
  /** True once the server has ended the response. */
  ended(): boolean;
  close(): void;
}

export function tlsClient(ca: string, origin: string) {
  async function request(path: string, sent: Sent = {}): Promise<Answer> {
    const response = await open(ca, origin + path, sent);
    let text = '';
    for await (const chunk of response) text += chunk;
    return { status: response.statusCode!, headers: response.headers, text, json: () => JSON.parse(text) };
  }

  return {
    request,
    /** A JSON POST; the answer parsed. */
    async post(path: string, body: unknown, sent: Sent = {}): Promise<{ status: number; body: any }> {
      const answer = await request(path, { ...sent, method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...sent.headers } });
      return { status: answer.status, body: answer.json() };
    },

    /** POST /graphql asking for text/event-stream; events are read as they arrive. */
    async eventStream(query: string, variables: Record<string, unknown>): Promise<EventStream> {
      const response = await open(ca, `${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query, variables }),
      });
      afterThisTest(async () => void response.destroy());
      let buffer = '';
      let done = false;
      let wake = () => {};
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => ((buffer += chunk), wake()));
      response.on('end', () => ((done = true), wake()));
      response.on('close', () => ((done = true), wake()));
      return {
        status: response.statusCode!,
        headers: response.headers,
        ended: () => done,
        close: () => void response.destroy(),
        async next(ms = 5_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const match = /event: next\ndata: (.*)\n\n/u.exec(buffer);
            if (match) {
              buffer = buffer.slice(match.index + match[0].length);
              return JSON.parse(match[1]!);
            }
            if (done) throw new Error(`the stream ended before the next event; it held: ${JSON.stringify(buffer)}`);
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no event within ${ms} ms; received so far: ${JSON.stringify(buffer)}`);
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, left);
              wake = () => (clearTimeout(timer), resolve());
            });
          }
        },
      };
    },

    /** Any request whose answer is read as it arrives (an MCP call's event stream): waits for text matching a pattern. */
    async streamed(path: string, sent: Sent = {}) {
      // Silent for as long as the server and nginx keep it: what a proxy's idle timeout does is what is tested.
      const response = await open(ca, origin + path, sent, 0);
      afterThisTest(async () => void response.destroy());
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      return {
        status: response.statusCode!,
        headers: response.headers,
        /** Resolves once what arrived matches `pattern`; rejects after `ms`, saying what had arrived. */
        async waitFor(pattern: RegExp, ms = 3_000): Promise<string> {
          for (const deadline = Date.now() + ms; !pattern.test(text); await new Promise((resolve) => setTimeout(resolve, 10))) {
            if (Date.now() > deadline) throw new Error(`nothing matching ${pattern} within ${ms} ms; received: ${JSON.stringify(text)}`);
          }
          return text;
        },
      };
    },

    /** A `ws` WebSocket that trusts the test CA, for graphql-ws's webSocketImpl. */
    WebSocket: class TrustingWebSocket extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { ca });
      }
    },
  };
}
