/**
 * graphql-sse's two modes (docs/edge.md#shutdown-of-streams): the distinct connections mode is served; the single
 * connection mode, whose client first reserves a stream with `PUT /graphql`, is refused with a 405 that names the
 * mode and the one to use (before: yoga's bare "GraphQL only supports GET and POST requests.").
 */
import { describe, expect, it } from 'vitest';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

describe.each(TRANSPORTS)('graphql-sse over %s', (transport) => {
  it('refuses the single connection mode with a 405 that says what to use instead', async () => {
    const t = await gatewayOver(transport);
    const response = await t.request('/graphql', { method: 'PUT', headers: { accept: 'text/plain' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(body.errors[0]!.message).toMatch(/single connection mode.*distinct connections mode/su);
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
