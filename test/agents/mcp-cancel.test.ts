/**
 * A tool call the client cancels (`notifications/cancelled`, docs/agents.md#confirmation-by-elicitation) acts no
 * further: the question it waits on is withdrawn, and a yes given after the cancel creates or pays nothing. Through
 * the SDK's own Client, whose AbortSignal on callTool sends the notification in a POST of its own, and through raw
 * HTTP, posting the answer after the cancel anyway as a client that ignores the withdrawal would. And behind two
 * instances (with TEST_DATABASE_URL and TEST_REDIS_URL), the cancel reaching the one that does not run the call.
 */
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { VALID_ORDER } from '../support/gateway.ts';
import { liveServer, type LiveServer } from '../support/live-server.ts';
import { postJson, startInstances } from '../support/instances.ts';
import { eventually } from '../support/receiver.ts';
import { sharedInstancesEnv } from '../support/databases.ts';
import { faultyLink, type FaultyLink } from '../support/faulty-link.ts';
import { afterThisTest } from '../support/gateway.ts';
import { acceptAll, mcpClient, RAW_HEADERS, rawSession, sseMessages, type McpTestClient } from './mcp-support.ts';

/** Replaces the client's answerer: the question waits until the test answers it; tells whether the server withdrew it. */
function holdQuestion(agent: McpTestClient) {
  let answer!: (result: ElicitResult) => void;
  let signal: AbortSignal | undefined;
  let wasAsked!: () => void;
  const asked = new Promise<void>((resolve) => (wasAsked = resolve));
  agent.client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
    signal = extra.signal;
    wasAsked();
    return new Promise<ElicitResult>((resolve) => (answer = resolve));
  });
  return { asked, answer: (result: ElicitResult) => answer(result), withdrawn: () => signal?.aborted === true };
}

/**
 * Holds back every cancellation the bus carries by `ms`, as Redis does under load (CI saw it): the instance the
 * cancel was posted to must not wait for the bus to hear it. Resolves once the held ones went out.
 */
function slowCancelsOnTheBus(bus: LiveServer['gateway']['bus'], ms: number): () => Promise<void> {
  const publish = bus.publish.bind(bus) as (...args: unknown[]) => void;
  const held: Promise<void>[] = [];
  (bus as unknown as Record<string, unknown>).publish = (topic: string, ...rest: unknown[]) => {
    if (topic !== 'mcpCancel') return publish(topic, ...rest);
    held.push(new Promise((resolve) => setTimeout(() => resolve(publish(topic, ...rest)), ms)));
  };
  return async () => void (await Promise.all(held));
}

/**
 * A confirmed create_order from a client without elicitation, cancelled while the order service's `step` runs (held
 * until the cancel is in): the POST's answer, and the service. The call runs on `live`; the cancel is posted to
 * `cancelledOn` (another instance of the same event, or the same one), whose bus is slow to carry it.
 */
async function cancelDuring(step: 'checkCreate' | 'create', live?: LiveServer, cancelledOn?: LiveServer) {
  live ??= await liveServer();
  cancelledOn ??= live;
  const relayed = slowCancelsOnTheBus(cancelledOn.gateway.bus, 300);
  const session = await rawSession(`${live.server.url}/mcp`); // no elicitation: answers are JSON
  const { confirmation } = (await session.call('create_order', { ...VALID_ORDER })).structuredContent;
  const orders = live.gateway.services.orders;
  const original = orders[step].bind(orders) as (input: never) => Promise<never>;
  let release!: () => void;
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const held = new Promise<void>((resolve) => (release = resolve));
  (orders as unknown as Record<string, unknown>)[step] = async (input: never) => (running(), await held, original(input));
  const call = session.post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_order', arguments: { ...VALID_ORDER, confirmation } } });
  await started;
  const cancel = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
  const headers = { ...RAW_HEADERS, 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-06-18' };
  expect((await fetch(`${cancelledOn.server.url}/mcp`, { method: 'POST', headers, body: cancel })).status).toBe(202);
  release();
  const answered = await call;
  await relayed();
  return { answered, orders };
}

const status = async (base: string, orderNumber: string, payToken: string) => ((await (await fetch(`${base}/api/orders/${orderNumber}?t=${payToken}`)).json()) as { status: string }).status;

/**
 * Calls `tool` (pay_order on an order made for it), cancels the call while its question waits, then answers yes:
 * the question was withdrawn, and no order was made (REST then creates one for the email) or paid.
 */
async function cancelWhileAsked(base: string, agent: McpTestClient, tool: string, yes: ElicitResult['content']) {
  const held = tool === 'pay_order' ? ((await postJson(base, '/api/orders', VALID_ORDER)).body as { orderNumber: string; payToken: string }) : undefined;
  const question = holdQuestion(agent);
  const stop = new AbortController();
  const args = held ? { orderNumber: held.orderNumber, payToken: held.payToken, method: 'vendor_card' } : { ...VALID_ORDER };
  const call = agent.client.callTool({ name: tool, arguments: args }, undefined, { signal: stop.signal });
  await question.asked;
  stop.abort('the user pressed stop');
  await expect(call).rejects.toThrow(/the user pressed stop/u);
  await eventually(() => question.withdrawn(), 1_000).catch(() => undefined);
  question.answer({ action: 'accept', content: yes });
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (held) expect(await status(base, held.orderNumber, held.payToken)).toBe('awaiting payment');
  else expect((await postJson(base, '/api/orders', VALID_ORDER)).body).toMatchObject({ ok: true, duplicate: false });
  expect(question.withdrawn()).toBe(true);
}

describe('a tool call the client cancels', () => {
  it.each([
    ['create_order', { confirm: true }],
    ['pay_order', { choice: 'demo card' }],
  ])('%s: withdraws its question and acts on no late yes', async (tool, yes) => {
    const live = await liveServer();
    await cancelWhileAsked(live.server.url, await mcpClient(live.server.url, { elicit: acceptAll }), tool, yes);
  });

  it('pays nothing on an answer posted after the cancel, and ends the call without an answer', async () => {
    const live = await liveServer();
    const { orderNumber, payToken } = await live.createOrder();
    const session = await rawSession(`${live.server.url}/mcp`, { capabilities: { elicitation: { form: {} } } });
    const stream = await session.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'pay_order', arguments: { orderNumber, payToken, method: 'vendor_card' } } });
    const next = sseMessages(stream);
    const question = await next();
    expect(question.method).toBe('elicitation/create');
    expect((await session.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'stop' } })).status).toBe(202);
    expect((await session.post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { choice: 'demo card' } } })).status).toBe(202);
    // The server withdraws its question; the cancelled call gets no answer (the spec: none is sent), its stream ends.
    expect(await next()).toMatchObject({ method: 'notifications/cancelled', params: { requestId: question.id } });
    await expect(next()).rejects.toThrow('stream ended');
    expect(await status(live.server.url, orderNumber, payToken)).toBe('awaiting payment');
  });

  it('creates nothing when a call without elicitation is cancelled before it acts, and answers its POST 202', async () => {
    // Cancelled while the order rules' check runs: the call is then between its checks and the create.
    const { answered, orders } = await cancelDuring('checkCreate');
    expect([answered.status, await answered.text()]).toEqual([202, '']);
    expect(await orders.holdsEmail(VALID_ORDER.email)).toBe(false);
  });

  it('answers a call cancelled while it creates the order: the order is made, and the agent is told it', async () => {
    // Cancelled while the create runs: the call has begun to act, which it can no longer undo.
    const { answered } = await cancelDuring('create');
    // Before, the POST was answered 202 with nothing: the order existed and the agent never had its payToken.
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as any).result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment', payToken: expect.any(String) });
  });

  it("cancels only the session's own call: another session naming the same request id changes nothing", async () => {
    const live = await liveServer();
    const url = `${live.server.url}/mcp`;
    const asker = await rawSession(url, { capabilities: { elicitation: { form: {} } } });
    const other = await rawSession(url);
    const stream = await asker.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'create_order', arguments: { ...VALID_ORDER } } });
    const next = sseMessages(stream);
    const question = await next();
    await other.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    await asker.post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } });
    expect((await next()).result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment' });
  });
});

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;

/**
 * `count` gateways of one event sharing PostgreSQL and Redis, in this process so that a test can hold their
 * services; with `link`, they reach Redis through that faulty proxy.
 */
async function eventGateways(count: number, link?: FaultyLink): Promise<LiveServer[]> {
  const shared = sharedInstancesEnv('mcp_cancel_claim');
  afterThisTest(shared.cleanup);
  const env = { ...shared.env, ...(link ? { REDIS_URL: link.url } : {}) };
  const gateways: LiveServer[] = [];
  for (let n = 0; n < count; n++) gateways.push(await liveServer({ env }));
  return gateways;
}

describe.skipIf(!DATABASE || !REDIS)(
  `a tool call cancelled on another instance${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it.each([
      ['create_order', { confirm: true }],
      ['pay_order', { choice: 'demo card' }],
    ])('%s: runs on A, the cancel and the answer reach B: the question is withdrawn and nothing is done', async (tool, yes) => {
      const [a, b] = (await startInstances('mcp_cancel')).processes.map((process) => process.url) as [string, string];
      // initialize and the call to A; everything else (the cancel, the answer) to B.
      const route = (method: string, body: unknown) => (method === 'POST' && ['initialize', 'tools/call'].includes((body as { method?: string })?.method ?? '') ? a : b);
      await cancelWhileAsked(a, await mcpClient(a, { elicit: acceptAll, route }), tool, yes);
    });

    it('creates nothing when the cancel reaches B while A is about to act, before the bus brings it to A', async () => {
      const [a, b] = (await eventGateways(2)) as [LiveServer, LiveServer];
      const { answered, orders } = await cancelDuring('checkCreate', a, b);
      // Before, B answered the cancel 202 and the bus brought it to A after A had made the order.
      expect([answered.status, await answered.text()]).toEqual([202, '']);
      expect(await orders.holdsEmail(VALID_ORDER.email)).toBe(false);
      expect(await b.gateway.services.orders.holdsEmail(VALID_ORDER.email)).toBe(false);
    });

    it('makes nothing, and says to try again, when the claim to act cannot reach Redis', async () => {
      const link = await faultyLink(REDIS!);
      const [live] = (await eventGateways(1, link)) as [LiveServer];
      const session = await rawSession(`${live.server.url}/mcp`);
      const { confirmation } = (await session.call('create_order', { ...VALID_ORDER })).structuredContent;
      const orders = live.gateway.services.orders;
      const checkCreate = orders.checkCreate.bind(orders);
      // Redis goes away once the call has passed its session's lookup, before the call claims its act.
      (orders as unknown as Record<string, unknown>).checkCreate = async (input: never) => (link.cut(), checkCreate(input));
      const answer = await session.rpc({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_order', arguments: { ...VALID_ORDER, confirmation } } });
      link.restore();
      expect(answer.result).toMatchObject({ isError: true, structuredContent: { ok: false, code: 'unavailable', retryable: true, retryAfter: 1 } });
      expect(await orders.holdsEmail(VALID_ORDER.email)).toBe(false);
    });

    it('answers a cancel it cannot record 503 with Retry-After, so that the client sends it again', async () => {
      const link = await faultyLink(REDIS!);
      const [live] = (await eventGateways(1, link)) as [LiveServer];
      const session = await rawSession(`${live.server.url}/mcp`);
      const cancel = (requestId: number) => session.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
      expect((await cancel(1)).status).toBe(202);
      // Only the connection that records claims breaks (the session's store is on another and stays up).
      link.cut(/mcp:c:/u);
      const refused = await cancel(2);
      expect([refused.status, refused.headers.get('retry-after'), ((await refused.json()) as any).error.message]).toEqual([503, '1', 'The cancellation could not be recorded just now. Send it again in a moment.']);
      link.restore();
      expect((await cancel(2)).status).toBe(202);
    });

    it('makes the order when the cancel reaches B after A began to act, and tells the agent', async () => {
      const [a, b] = (await eventGateways(2)) as [LiveServer, LiveServer];
      const { answered } = await cancelDuring('create', a, b);
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as any).result.structuredContent).toMatchObject({ ok: true, status: 'awaiting payment', payToken: expect.any(String) });
    });
  },
);
