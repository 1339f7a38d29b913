/**
 * graphql-sse's two modes (docs/edge.md#graphql-sse), over each transport: the single connection mode's reservation
 * (`PUT /graphql`; test/graphql/sse-single-connection.test.ts follows it with graphql-sse's client) and the distinct
 * connections mode. Before, the reservation was refused (405) and only the distinct mode served.
 */
import { describe, expect, it } from 'vitest';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

describe.each(TRANSPORTS)('graphql-sse over %s', (transport) => {
  it('reserves a stream of the single connection mode: 201 and a token, a new one each time', async () => {
    const t = await gatewayOver(transport);
    const reserve = () => t.request('/graphql', { method: 'PUT', headers: { accept: 'text/plain' } });
    const response = await reserve();
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const token = await response.text();
    expect(token).toMatch(/^[\w-]{32}\.[\w-]{22}$/u);
    expect(await (await reserve()).text()).not.toBe(token);
  });

  it('serves the distinct connections mode: a POST asking for text/event-stream streams the subscription', async () => {
    const t = await gatewayOver(transport);
    const response = await t.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { sleeveOptionsChanged { charLimit } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // The first event is the options offered now (a keep-alive comment may come before it).
    const reader = response.body!.getReader();
    let text = '';
    for (let reads = 0; reads < 5 && !text.includes('charLimit'); reads++) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/event: next\ndata: .*charLimit/u);
    await reader.cancel();
  });
});
