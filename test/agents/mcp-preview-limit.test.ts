/**
 * create_order's first call without elicitation (the preview) counts as a read of the options: it changes nothing.
 * Except for an email that already has an order: the duplicate it answers carries a fresh payToken for that order,
 * so such a preview counts as the create REST counts (group `create`, per email: docs/agents.md), or anyone knowing
 * an email could mint tokens at the cost of a read. Such a preview reads the email's order twice (whether it has one,
 * before the limit; then the duplicate's view), no longer three times.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { recordStatements } from '../support/statements.ts';
import { mcpClient } from './mcp-support.ts';

describe("create_order's preview", () => {
  it('of an email that has an order counts against the per-email create limit', async () => {
    const live = await liveServer({ env: { RATE_LIMIT_SUBJECT_WRITE: '3' } });
    await live.createOrder(); // the email's first create
    const agent = await mcpClient(live.server.url);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push((await agent.call('create_order', { ...VALID_ORDER })).structuredContent.code);
    expect(codes).toEqual(['duplicate', 'duplicate', 'rate_limited', 'rate_limited']);
  });

  it('of an email that has an order reads that order twice: once to count the create, once for the duplicate', async () => {
    const live = await liveServer();
    await live.createOrder();
    const agent = await mcpClient(live.server.url);
    const recorded = recordStatements();
    try {
      expect((await agent.call('create_order', { ...VALID_ORDER })).structuredContent.code).toBe('duplicate');
    } finally {
      recorded.stop();
    }
    const byEmail = recorded.statements.filter((statement) => /^select \* from "orders" where "email_key" = /u.test(statement.sql));
    expect(byEmail).toHaveLength(2);
  });

  it('of an email without an order stays a read: previews never use up its creates', async () => {
    const live = await liveServer({ env: { RATE_LIMIT_SUBJECT_WRITE: '1' } });
    const agent = await mcpClient(live.server.url);
    for (let i = 0; i < 3; i++) expect((await agent.call('create_order', { ...VALID_ORDER })).structuredContent.confirmationRequired).toBe(true);
    const code = (await agent.call('create_order', { ...VALID_ORDER })).structuredContent.confirmation;
    expect((await agent.call('create_order', { ...VALID_ORDER, confirmation: code })).structuredContent).toMatchObject({ ok: true });
  });

  it('of an email without an order is counted as a lookup per address: past RATE_LIMIT_READ, rate_limited', async () => {
    // Three reads per address: the session's initialize (group session) has its own, so three previews get through.
    const live = await liveServer({ env: { RATE_LIMIT_READ: '3' } });
    const agent = await mcpClient(live.server.url);
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 4; i++) codes.push((await agent.call('create_order', { ...VALID_ORDER, email: `preview${i}@example.com` })).structuredContent.code);
    expect(codes).toEqual([undefined, undefined, undefined, 'rate_limited']);
  });
});
