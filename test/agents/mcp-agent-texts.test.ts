/**
 * What the MCP door tells an agent in its own terms: pay_order's first call needs no method (it is for offering
 * both ways), MCP answers speak of pay_order's payToken argument only (not REST's field or GraphQL's input), and a
 * ready order's answer says where to learn the pickup place and hours.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { acceptAll, mcpClient, textOf } from './mcp-support.ts';

const ADMIN = 'mcp-admin-token-5d41402abc4b2a76';

describe('the MCP answers', () => {
  it('offer both ways to pay on a first pay_order call without a method, and pay nothing', async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    const agent = await mcpClient(live.server.url);
    const first = await agent.call('pay_order', { orderNumber, payToken });
    expect(first.structuredContent).toMatchObject({ confirmationRequired: true, orderNumber });
    expect(first.structuredContent.choices.map((c: { method: string }) => c.method)).toEqual(['vendor_card', 'card', 'wallet']);
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('awaiting payment');
    // With elicitation the user is asked, and pays the way they chose.
    const asking = await mcpClient(live.server.url, { elicit: acceptAll });
    expect((await asking.call('pay_order', { orderNumber, payToken })).structuredContent).toMatchObject({ ok: true, status: 'received' });
    expect(asking.asked).toHaveLength(1);
    // An order no longer awaiting payment is answered as it is: no payment, no alreadyPaid.
    expect((await agent.call('pay_order', { orderNumber, payToken })).structuredContent).toMatchObject({ ok: true, status: 'received' });
    const { tools } = await agent.client.listTools();
    const pay = tools.find((tool) => tool.name === 'pay_order')!;
    expect(pay.inputSchema.required).toEqual(['orderNumber', 'payToken']);
    expect(pay.description).toMatch(/Omit `method` on the first call unless the user already said how they want to pay/u);
  });

  it('never mention REST or GraphQL', async () => {
    const live = await liveServer();
    const agent = await mcpClient(live.server.url);
    const texts: string[] = [];
    const keep = (result: { content: unknown[] }) => (texts.push(JSON.stringify(result.content)), result as any);
    const first = keep(await agent.call('create_order', { ...VALID_ORDER }));
    const created = keep(await agent.call('create_order', { ...VALID_ORDER, confirmation: first.structuredContent.confirmation }));
    const { orderNumber, payToken } = created.structuredContent;
    expect(created.structuredContent.nextAction).toContain("pay_order's payToken argument");
    keep(await agent.call('create_order', { ...VALID_ORDER })); // the duplicate, with the held order's next step
    keep(await agent.call('get_order', { orderNumber, payToken }));
    keep(await agent.call('pay_order', { orderNumber, payToken, method: 'vendor_card' }));
    const read = await agent.client.readResource({ uri: `sleeve://orders/${orderNumber}?t=${payToken}` });
    texts.push(JSON.stringify(read.contents));
    expect(texts.filter((text) => /REST|GraphQL/u.test(text))).toEqual([]);
  });

  it('send an agent to get_event_info for the pickup place and hours once the sleeve is ready', async () => {
    const live = await liveServer({ env: { ADMIN_TOKEN: ADMIN } });
    const { orderNumber, payToken } = await live.createOrder();
    await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' });
    await live.gql('mutation ($n: ID!) { advanceOrder(orderNumber: $n, status: READY) { status } }', { n: orderNumber }, { token: ADMIN });
    const agent = await mcpClient(live.server.url);
    const ready = await agent.call('get_order', { orderNumber, payToken });
    expect(ready.structuredContent.status).toBe('ready');
    expect(ready.structuredContent.nextAction).toMatch(/get_event_info.*pickup station.*hours/u);
    expect(textOf(ready)).toContain(`nextAction: ${ready.structuredContent.nextAction}`);
  });
});
