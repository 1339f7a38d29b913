/**
 * Paying with the user's own card or wallet over MCP (docs/agents.md#confirmation-by-elicitation), as an outside agent
 * developer tried it: `pay_order` with method card or wallet and no token was a 400 "needs the token that the payUrl
 * page creates" before the user was asked, and the choices offered card and wallet confirmation codes that led only to
 * that 400. The page makes the token and takes the payment itself, so an agent never holds one: such a call is now
 * the user's way to the page. And `confirmation: null`, which some clients send for an argument left out, is no code.
 */
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer } from '../support/live-server.ts';
import { mcpClient } from './mcp-support.ts';

describe('pay_order with the own card or wallet', () => {
  it('with elicitation: asks the user, and answers the pay page when they choose it', async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    const agent = await mcpClient(live.server.url, { elicit: () => ({ action: 'accept', content: { choice: 'pay page' } }) });
    const answered = await agent.call('pay_order', { orderNumber, payToken, method: 'card' });
    expect(agent.asked).toHaveLength(1);
    expect(answered.isError).toBeUndefined();
    expect(answered.structuredContent).toMatchObject({ orderNumber, status: 'awaiting payment', payUrl: expect.stringContaining(`/pay/${orderNumber}`) });
    expect(answered.structuredContent.nextAction).toMatch(/payUrl/u);
  });

  it('without elicitation: answers the pay page at once, and the choices carry no code for a way pay_order cannot pay', async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    const agent = await mcpClient(live.server.url);
    const choices = (await agent.call('pay_order', { orderNumber, payToken, method: 'vendor_card' })).structuredContent.choices as Array<Record<string, unknown>>;
    expect(choices.map((choice) => [choice.method, 'confirmation' in choice])).toEqual([['vendor_card', true], ['card', false], ['wallet', false]]);
    for (const method of ['card', 'wallet']) {
      const answered = await agent.call('pay_order', { orderNumber, payToken, method });
      expect(answered.isError, method).toBeUndefined();
      expect(answered.structuredContent, method).toMatchObject({ orderNumber, status: 'awaiting payment', payUrl: expect.stringContaining(`/pay/${orderNumber}`) });
    }
    // Nothing was paid: the order still waits for the page (or the demo card).
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('awaiting payment');
  });

  it("without elicitation, the pay page's token: asks for that payment's code, and pays with it once confirmed", async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    const token = (await live.rest('POST', `/api/orders/${orderNumber}/wallet-token`, { t: payToken })).body.token as string;
    const agent = await mcpClient(live.server.url);
    const call = (confirmation?: string) => agent.call('pay_order', { orderNumber, payToken, method: 'wallet', token, ...(confirmation ? { confirmation } : {}) });
    // It only ever answered the choices again, whose codes are the demo card's (an agent review).
    const asked = (await call()).structuredContent;
    expect(asked).toMatchObject({ confirmationRequired: true, method: 'wallet', confirmation: expect.any(String) });
    expect(asked.nextAction).toContain(asked.confirmation);
    const demoCode = ((await agent.call('pay_order', { orderNumber, payToken })).structuredContent.choices as Array<{ confirmation?: string }>)[0]!.confirmation!;
    expect((await call(demoCode)).structuredContent).toMatchObject({ confirmationRequired: true, nextAction: expect.stringMatching(/not the code of these details/u) });
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('awaiting payment');
    const paid = await call(asked.confirmation as string);
    expect(paid.isError).toBeUndefined();
    expect((await live.rest('GET', `/api/orders/${orderNumber}?t=${payToken}`)).body.status).toBe('received');
  });

  it('on an order no longer awaiting payment: its status, not the page', async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    expect((await live.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'vendor_card' })).status).toBe(200);
    const agent = await mcpClient(live.server.url);
    const answered = await agent.call('pay_order', { orderNumber, payToken, method: 'wallet' });
    expect(answered.isError).toBeUndefined();
    expect(answered.structuredContent).toMatchObject({ orderNumber, status: 'received' });
  });

  it('create_order: confirmation null is a first call, not a code that changed', async () => {
    const live = await liveServer();
    const agent = await mcpClient(live.server.url);
    const first = await agent.call('create_order', { ...VALID_ORDER, confirmation: null });
    expect(first.structuredContent.confirmationRequired).toBe(true);
    expect(first.structuredContent.nextAction).not.toMatch(/not the code of these details/u);
  });
});
