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
