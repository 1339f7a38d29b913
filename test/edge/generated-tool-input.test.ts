/**
 * Bad input through the MCP door, generated: every tool, public ones by a client that confirms what it is asked
 * (elicitation) and staff ones with the staff token, is called through the MCP SDK's own client over a real port with
 * arguments fast-check makes from the JSON Schema the tool publishes (test/support/bad-arguments.ts). Property names
 * that say what exists (an order number, its payToken) often get a value that does.
 *
 * Each call must come back as a tool result, never a protocol error; a failure must carry document 1's Error body and
 * never `internal`; and a refusal must leave every table as it was (test/support/stored-rows.ts, delivery
 * bookkeeping by keys as in generated-graphql-input.test.ts). FUZZ_SEED replays a seed; FUZZ_RUNS widens a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptAll, mcpClient } from '../agents/mcp-support.ts';
import { argumentsOf } from '../support/bad-arguments.ts';
import { fuzzRuns } from '../support/bad-input.ts';
import { orderSeeds } from '../support/bad-variables.ts';
import { changedTables, DELIVERY_BOOKKEEPING, gatewayOnFile, storedRows } from '../support/stored-rows.ts';

/** Error codes that are outcomes which store something (a fresh duplicate payToken, a declined charge). */
const STORING_OUTCOMES = new Set(['duplicate', 'declined', 'payment_error', 'payment_unknown']);

describe('bad input through the MCP door, generated for every tool', () => {
  it('always answers a tool result, never internal, and a refusal stores nothing', { timeout: 600_000 }, async () => {
    const { t, file, base } = await gatewayOnFile();
    const order = await t.createOrder({ email: 'fuzz@example.com' });
    const clients = [await mcpClient(base, { elicit: acceptAll }), await mcpClient(base, { headers: { authorization: `Bearer ${t.adminToken}` } })];
    for (const agent of clients) {
      const { tools } = await agent.client.listTools();
      expect(tools.length).toBeGreaterThan(3);
      for (const tool of tools) {
        await fc.assert(
          fc.asyncProperty(argumentsOf(tool.inputSchema as never, orderSeeds(order)), async (args) => {
            const stored = storedRows(file, DELIVERY_BOOKKEEPING);
            let result;
            try {
              result = await agent.call(tool.name, args);
            } catch (error) {
              throw new Error(`${tool.name}(${JSON.stringify(args).slice(0, 300)}) failed as a protocol error: ${String(error)}`);
            }
            const what = `${tool.name}(${JSON.stringify(args).slice(0, 300)}) answered ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 400)}`;
            if (!result.isError) return;
            const body = result.structuredContent as { ok?: boolean; code?: string } | undefined;
            expect(body?.ok, what).toBe(false);
            expect(body?.code, what).toEqual(expect.any(String));
            expect(body?.code, what).not.toBe('internal');
            if (!STORING_OUTCOMES.has(body!.code!)) expect(changedTables(stored, storedRows(file, DELIVERY_BOOKKEEPING)), `${what}\nchanged tables`).toEqual([]);
          }),
          // 60 calls per tool: about 10 s here.
          fuzzRuns(60),
        );
      }
    }
  });
});
