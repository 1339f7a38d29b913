/**
 * The MCP figure (issue 20, docs/agents.md#mcp-server): `get_sleeve_options` called through the MCP SDK's own client
 * (Client + StreamableHTTPClientTransport, one session per client, each call one POST /mcp answered as JSON) against
 * REST `GET /api/sleeve-options` (fetch), on one server, the same number of calls in flight. The load alternates
 * between the two in slices of SLICE_MS (ABBA, after a warm-up of each, each slice drained before the next), as
 * bench/venue.ts does, so a drift of the shared cores falls on both alike. Reported: calls per second of each, and
 * MCP/REST, the median of BENCH_ROUNDS rounds' ratios.
 *
 * Run alone: `npx tsx bench/mcp.ts` (on the build, dist/, as `npm run bench` makes it; BENCH_MCP_ENTRY=src/main.ts
 * runs the sources through tsx instead).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { abbaSide, GATEWAY_ENTRY, median, startChild } from './lib.ts';

const SLICE_MS = 1_000;
/** Calls in flight on each side: MCP as CLIENTS sessions with PER_CLIENT calls each. */
const CLIENTS = 8;
const PER_CLIENT = 4;
const IN_FLIGHT = CLIENTS * PER_CLIENT;

export interface McpFigures {
  mcp: number[];
  rest: number[];
}

type Caller = () => Promise<void>;

/** `IN_FLIGHT` calls at a time until `until`; the number of calls answered. Any failure stops the bench. */
async function drive(callers: Caller[], until: number): Promise<number> {
  let done = 0;
  await Promise.all(
    callers.map(async (call) => {
      while (performance.now() < until) {
        await call();
        done++;
      }
    }),
  );
  return done;
}

async function mcpCallers(url: string): Promise<{ callers: Caller[]; close(): Promise<void> }> {
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const client = new Client({ name: 'sleeve-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    clients.push(client);
  }
  const callers = clients.flatMap((client) =>
    Array.from({ length: PER_CLIENT }, () => async () => {
      const result = await client.callTool({ name: 'get_sleeve_options', arguments: {} });
      if (result.isError) throw new Error(`get_sleeve_options failed: ${JSON.stringify(result.structuredContent)}`);
    }),
  );
  return { callers, close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}

function restCallers(url: string): Caller[] {
  return Array.from({ length: IN_FLIGHT }, () => async () => {
    const response = await fetch(`${url}/api/sleeve-options`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET /api/sleeve-options answered ${response.status}`);
  });
}

/** One round: a fresh server, `seconds` of load on each side in alternating slices; calls per second of each. */
async function round(seconds: number): Promise<[number, number]> {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-mcp-bench-'));
  const entry = process.env.BENCH_MCP_ENTRY ?? GATEWAY_ENTRY;
  // The limiter still runs on every call of both doors; its limits are out of reach of one load generator.
  const child = await startChild(entry, { DATABASE_URL: `file:${join(dir, 'mcp.db')}`, RATE_LIMIT_READ: '10000000', RATE_LIMIT_WRITE: '10000000' });
  const mcp = await mcpCallers(child.url);
  try {
    const sides = [mcp.callers, restCallers(child.url)];
    for (const side of sides) await drive(side, performance.now() + 2_000); // warm-up
    const calls = [0, 0];
    const elapsed = [0, 0];
    for (let slice = 0; slice < 2 * Math.ceil((seconds * 1000) / SLICE_MS); slice++) {
      const which = abbaSide(slice);
      const started = performance.now();
      calls[which]! += await drive(sides[which]!, started + SLICE_MS);
      elapsed[which]! += performance.now() - started;
    }
    return [(calls[0]! * 1000) / elapsed[0]!, (calls[1]! * 1000) / elapsed[1]!];
  } finally {
    await mcp.close();
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchMcp(seconds = Number(process.env.BENCH_SECONDS ?? 10), rounds = Number(process.env.BENCH_ROUNDS ?? 3)): Promise<McpFigures> {
  const figures: McpFigures = { mcp: [], rest: [] };
  for (let i = 1; i <= rounds; i++) {
    const [mcp, rest] = await round(seconds);
    figures.mcp.push(mcp);
    figures.rest.push(rest);
    console.log(`round ${i} mcp: get_sleeve_options ${mcp.toFixed(0)} calls/s, REST GET /api/sleeve-options ${rest.toFixed(0)} /s (${(mcp / rest).toFixed(3)})`);
  }
  return figures;
}

export function printMcpFigure(figures: McpFigures, seconds: number): void {
  const ratios = figures.mcp.map((m, i) => m / figures.rest[i]!);
  console.log(
    `MCP get_sleeve_options against REST GET /api/sleeve-options (${IN_FLIGHT} calls in flight, ${seconds} s each per round, alternating ${SLICE_MS} ms slices): ` +
      `MCP ${median(figures.mcp).toFixed(0)} calls/s, REST ${median(figures.rest).toFixed(0)} /s (medians); ratio ${median(ratios).toFixed(3)}, the rounds' ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  benchMcp(seconds)
    .then((figures) => printMcpFigure(figures, seconds))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
