/**
 * A call's transport (mcp/relay.ts RelayedTransport) under the SDK's own in-memory transport: a question goes out
 * under a routable id, and its answer reaches the call once, whichever way comes first (the bus, or the answers kept
 * in Redis read after a break: mcp/instance-calls.ts); an answer to a question the call withdrew is not heard.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { RelayedTransport } from '../../mcp/relay.ts';

async function call() {
  const [inner, client] = InMemoryTransport.createLinkedPair();
  const sentToClient: JSONRPCMessage[] = [];
  client.onmessage = (message) => void sentToClient.push(message);
  await client.start();
  const transport = new RelayedTransport(inner, 'inst.c1', 'session', [], () => {});
  const heard: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void heard.push(message);
  await transport.start();
  const ask = (id: number) => transport.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params: { message: 'Order?', requestedSchema: { type: 'object', properties: {} } } });
  const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { action: 'accept', content: {} } });
  return { transport, sentToClient, heard, ask, answer };
}

describe('a call’s relayed transport', () => {
  it('asks under a routable id and hears its answer once, however many ways it comes', async () => {
    const { transport, sentToClient, heard, ask, answer } = await call();
    await ask(0);
    expect(sentToClient).toEqual([expect.objectContaining({ id: 'inst.c1.0', method: 'elicitation/create' })]);
    expect(transport.waitingQuestions()).toEqual(['inst.c1.0']);
    transport.deliver(answer(0)); // over the bus
    transport.deliver(answer(0)); // read again from the kept answers after a break
    expect(heard).toEqual([answer(0)]);
    expect(transport.waitingQuestions()).toEqual([]);
  });

  it('does not hear an answer to a question it withdrew, nor one to a question it never asked', async () => {
    const { transport, heard, ask, answer } = await call();
    await ask(0);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'timed out' } });
    expect(transport.waitingQuestions()).toEqual([]);
    transport.deliver(answer(0));
    transport.deliver(answer(7));
    expect(heard).toEqual([]);
  });
});
