/**
 * The MCP SDK's own client against a real port: `Client` + `StreamableHTTPClientTransport`, with an elicitation
 * handler when a test wants its client to declare the capability, and a fetch that can route each request to an
 * instance of its choosing (the two-instance suites) and tell when the standalone stream is open.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterThisTest } from '../support/gateway.ts';

export interface McpClientOptions {
  /** Declares form elicitation and answers each question with this. */
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  headers?: Record<string, string>;
  /** The base URL each request goes to (default: the one given); lets a test spread one session over instances. */
  route?: (method: string, body: unknown) => string;
}

export interface McpTestClient {
  client: Client;
  /** Every question the server asked, in order. */
  asked: Array<ElicitRequest['params']>;
  /** Every URI a `notifications/resources/updated` named, in order. */
  updated: string[];
  /** Resolves once the standalone stream (GET /mcp) has been answered 200. */
  streamOpen: Promise<void>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: any }>;
  /** Waits (bounded) until `updated` holds `count` URIs. */
  updates(count: number, ms?: number): Promise<string[]>;
}

export async function mcpClient(base: string, options: McpClientOptions = {}): Promise<McpTestClient> {
  const client = new Client({ name: 'sleeve-test-agent', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  const asked: Array<ElicitRequest['params']> = [];
  const updated: string[] = [];
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updated.push(notification.params.uri);
  });
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const routed: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const target = options.route ? new URL(url.pathname + url.search, options.route(method, body)) : url;
    const response = await fetch(target, init);
    if (method === 'GET' && response.status === 200) opened();
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: options.headers ?? {} }, fetch: routed });
  await client.connect(transport);
  // Only closed: a DELETE would end the standalone stream, which the client then reconnects (test/agents/mcp.test.ts
  // covers DELETE with a raw request).
  afterThisTest(() => client.close());
  return {
    client,
    asked,
    updated,
    streamOpen,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as never,
    async updates(count, ms = 5_000) {
      const until = Date.now() + ms;
      while (updated.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return updated;
    },
  };
}

/** The answer an accepting user gives: yes to the order, the demo card to pay. */
export function acceptAll(request: ElicitRequest['params']): ElicitResult {
  const properties = ('requestedSchema' in request ? request.requestedSchema.properties : {}) as Record<string, unknown>;
  if ('confirm' in properties) return { action: 'accept', content: { confirm: true } };
  return { action: 'accept', content: { choice: 'demo card' } };
}

/** Text of a tool result's first content item. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** What every raw POST to /mcp carries. */
export const RAW_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface RawSession {
  id: string;
  /** POSTs one message in the session (with its protocol version header unless opened without). */
  post(message: unknown): Promise<Response>;
  /** POSTs a request and answers its JSON-RPC answer, whether sent as JSON or as the SSE stream's data. */
  rpc(message: unknown): Promise<any>;
  /** tools/call's result. */
  call(name: string, args?: Record<string, unknown>): Promise<any>;
}

/**
 * A session opened by a raw initialize at `protocolVersion`, as a client other than the SDK's would; `header: false`
 * sends no `mcp-protocol-version` after it (the spec then says to assume 2025-03-26).
 */
export async function rawSession(url: string, options: { protocolVersion?: string; capabilities?: Record<string, unknown>; header?: boolean } = {}): Promise<RawSession> {
  const protocolVersion = options.protocolVersion ?? '2025-06-18';
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: options.capabilities ?? {}, clientInfo: { name: 'raw', version: '1' } } };
  const opened = await fetch(url, { method: 'POST', headers: RAW_HEADERS, body: JSON.stringify(init) });
  await opened.text();
  const id = opened.headers.get('mcp-session-id')!;
  const headers = { ...RAW_HEADERS, 'mcp-session-id': id, ...(options.header === false ? {} : { 'mcp-protocol-version': protocolVersion }) };
  const post = (message: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  let nextId = 1;
  const rpc = async (message: unknown) => {
    const text = await (await post(message)).text();
    return JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/mu.exec(text)![1]!);
  };
  return {
    id,
    post,
    rpc,
    call: async (name, args = {}) => (await rpc({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } })).result,
  };
}

/** Reads SSE `data:` messages from a response, one at a time; rejects with "stream ended" once it ends. */
export function sseMessages(response: Response): () => Promise<any> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async () => {
    for (;;) {
      const match = /data: (.*)\n\n/u.exec(buffered);
      if (match) {
        buffered = buffered.slice(match.index + match[0].length);
        return JSON.parse(match[1]!);
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
}
