/**
 * The MCP door behind two instances on one PostgreSQL and one Redis (docs/agents.md#sessions), with the SDK's own
 * client spreading one session over both: initialize and the tool calls reach instance A; every other request — the
 * `initialized` notification, the user's answers to A's questions, the standalone stream, the subscription — reaches
 * instance B. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set; says so when skipped.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { postJson, staffQuery, startInstances } from '../support/instances.ts';
import { acceptAll, mcpClient } from '../agents/mcp-support.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'mcp-scale-admin';

async function twoInstances() {
  // One VAULT_KEY for the event, as every deployment of several instances has: a subscription is stored sealed.
  const { processes } = await startInstances('mcp', { ADMIN_TOKEN: ADMIN, VAULT_KEY: randomBytes(32).toString('base64') });
  return { a: processes[0]!.url, b: processes[1]!.url };
}

/** initialize and tools/call to A, everything else to B; each request's destination is recorded. */
function split(a: string, b: string, seen: string[]) {
  return (method: string, body: unknown): string => {
    const rpc = (body as { method?: string } | undefined)?.method;
    const target = method === 'POST' && (rpc === 'initialize' || rpc === 'tools/call') ? a : b;
    seen.push(`${method} ${rpc ?? (body ? 'answer' : '')} → ${target === a ? 'A' : 'B'}`);
    return target;
  };
}

describe.skipIf(!DATABASE || !REDIS)(
  `MCP on several instances on one PostgreSQL and one Redis${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('continues on instance B a session started on instance A, the user answering A\'s questions through B', async () => {
      const { a, b } = await twoInstances();
      const seen: string[] = [];
      const agent = await mcpClient(a, { elicit: acceptAll, route: split(a, b, seen) });
      const created = await agent.call('create_order', { ...VALID_ORDER });
      expect(created.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
      const { orderNumber, payToken } = created.structuredContent;
      const paid = await agent.call('pay_order', { orderNumber, payToken, method: 'vendor_card' });
      expect(paid.structuredContent).toMatchObject({ ok: true, status: 'received', alreadyPaid: false });
      expect(agent.asked).toHaveLength(2);
      // Both ways were really taken: the session began on A, and the answers to A's questions went to B.
      expect(seen[0]).toBe('POST initialize → A');
      expect(seen).toContain('POST notifications/initialized → B');
      expect(seen.filter((s) => s === 'POST answer → B')).toHaveLength(2);
      // B knows the session: a listing there works without a new initialize.
      const listed = await agent.client.listTools();
      expect(listed.tools.length).toBe(5);
      expect(seen.at(-1)).toBe('POST tools/list → B');
    });

    it('sends the update of a change made on instance A to a subscriber whose stream is on instance B', async () => {
      const { a, b } = await twoInstances();
      const agent = await mcpClient(a, { route: split(a, b, []) });
      await agent.streamOpen; // held by B
      const created = await postJson(a, '/api/orders', { ...VALID_ORDER, email: 'grace@example.com' });
      const { orderNumber, payToken } = created.body;
      const uri = `sleeve://orders/${orderNumber}?t=${payToken}`;
      await agent.client.subscribeResource({ uri }); // on B
      expect((await postJson(a, `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
      expect(await agent.updates(1)).toEqual([uri]);
      await staffQuery(a, ADMIN, 'mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { status } }', { n: orderNumber });
      expect(await agent.updates(2)).toEqual([uri, uri]);
      const read = await agent.client.readResource({ uri });
      expect(JSON.parse(String((read.contents[0] as { text: string }).text)).status).toBe('ready');
    });
  },
);
