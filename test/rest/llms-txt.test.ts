/**
 * GET /llms.txt (docs/agents.md#llmstxt): the index for agents in the llms.txt format — an H1, a blockquote summary,
 * free text without headings, then H2 sections that are lists of `- [name](url): notes` — linking /llms-full.txt,
 * /openapi.json, /docs and /mcp at PUBLIC_URL, each of which answers on a real server.
 */
import { describe, expect, it } from 'vitest';
import { liveServer } from '../support/live-server.ts';
import { testGateway } from '../support/gateway.ts';

const LINK = /^- \[([^\]]+)\]\((https?:\/\/[^)\s]+)\)(?:: (.+))?$/u;

/** The llms.txt structure, or the first line that breaks it. */
function parseLlmsTxt(text: string): { title: string; summary: string; sections: Record<string, Array<{ name: string; url: string }>> } {
  const lines = text.split('\n');
  expect(lines[0], 'the first line is the H1 title').toMatch(/^# \S/u);
  const summary = lines.slice(1).find((line) => line.trim() !== '');
  expect(summary, 'a blockquote summary follows the title').toMatch(/^> \S/u);
  const sections: Record<string, Array<{ name: string; url: string }>> = {};
  let current: string | null = null;
  for (const line of lines.slice(1)) {
    if (line.startsWith('## ')) {
      current = line.slice(3).trim();
      sections[current] = [];
    } else if (line.startsWith('#')) {
      throw new Error(`Only H2 sections follow the title: ${line}`);
    } else if (current !== null && line.trim() !== '') {
      const link = LINK.exec(line);
      if (!link) throw new Error(`A line of section "${current}" is not a link list item: ${line}`);
      sections[current]!.push({ name: link[1]!, url: link[2]! });
    }
  }
  return { title: lines[0]!.slice(2), summary: summary!.slice(2), sections };
}

describe('GET /llms.txt', () => {
  it('answers the index in the llms.txt format, linking the event information, the OpenAPI document, /docs and /mcp', async () => {
    const t = await testGateway();
    const res = await t.rest('GET', '/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const index = parseLlmsTxt(res.body);
    expect(index.title).toBe('Sleeve Gateway');
    expect(index.summary).toMatch(/laptop sleeve/u);
    const urls = Object.values(index.sections).flat().map((link) => link.url);
    for (const path of ['/llms-full.txt', '/openapi.json', '/docs', '/mcp', '/graphql']) expect(urls).toContain(`http://sleeve.test${path}`);
    // What an agent needs to use /mcp beyond REST: the confirmation codes, the order resource, the staff token.
    expect(res.body).toMatch(/confirmation code/u);
    expect(res.body).toContain('sleeve://orders/{orderNumber}?t={payToken}');
    expect(res.body).toMatch(/Authorization: Bearer/u);
    // Document 1's rules for client agents are stated before the links.
    expect(res.body).toMatch(/Spell stitchText\s+back/u);
    expect(res.body).toMatch(/never choose for\s+the user/u);
    // Every rule of document 1 whole, the confirmation of the payment too (it was left out).
    expect(res.body).toMatch(/Confirm the payment with the user unless the user's own settings allow paying without\s+asking/u);
    expect(res.body).toMatch(/held unpaid for\s+(> )?5\s+(> )?minutes/u);
  });

  it('states the configured hold (HOLD_SECONDS), as every other text does', async () => {
    const t = await testGateway({ env: { HOLD_SECONDS: '90' } });
    const index = (await t.rest('GET', '/llms.txt')).body;
    parseLlmsTxt(index);
    expect(index).toMatch(/held unpaid for\n> 90 seconds/u);
    expect(index).not.toMatch(/5\s+minutes/u);
    // The event information's default text says it too, until staff replace it (it said "5 minutes" whatever the hold).
    const eventInfo = (await t.rest('GET', '/llms-full.txt')).body;
    expect(eventInfo).toMatch(/held unpaid for\s+90 seconds, then cancelled/u);
    expect(eventInfo).not.toMatch(/5\s+minutes/u);
  });

  it('links only addresses that answer on the server itself', { timeout: 30_000 }, async () => {
    const live = await liveServer();
    const base = `http://127.0.0.1:${live.server.port}`;
    const index = parseLlmsTxt(await (await fetch(`${base}/llms.txt`)).text());
    for (const { url } of Object.values(index.sections).flat()) {
      const path = new URL(url).pathname;
      if (path === '/mcp') {
        // The MCP door answers a POST of a JSON-RPC message; what matters here is that the path is served.
        const mcp = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        expect(mcp.status, `POST ${path}`).not.toBe(404);
        await mcp.body?.cancel();
        continue;
      }
      // /graphql answers a browser (GraphiQL) with a page, a client with a query's answer.
      const answer = await fetch(`${base}${path}`, path === '/graphql' ? { headers: { accept: 'text/html' } } : {});
      expect(answer.status, `GET ${path}`).toBe(200);
      await answer.body?.cancel();
    }
  });
});
