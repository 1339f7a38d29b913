/**
 * GraphQL over HTTP conformance, judged by graphql-http's own server audits (the spec's reference implementation)
 * against the production entry on a real socket (docs/graphql.md#status-codes). Every audit passes but two
 * deliberate SHOULDs: a client that names no JSON type (no Accept, or a wildcard) gets application/graphql-response+json,
 * whose status codes say what went wrong, not application/json.
 */
import { serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';

/** The audits this gateway answers otherwise on purpose: graphql-response+json where the client names no JSON type. */
const DELIBERATE = ['47DE', '80D8'];

describe('GraphQL over HTTP, by graphql-http’s audits', () => {
  it('passes every audit but the two deliberate media-type warnings, none of them a MUST', async () => {
    const t = await testGateway();
    const server = await startServer(t.gateway, { port: 0, host: '127.0.0.1' });
    afterThisTest(() => server.close(1_000));
    const url = `http://127.0.0.1:${server.port}/graphql`;
    // One after another: a few audits send the same document, and the first one of a kind goes to yoga.
    const results: Array<{ id: string; name: string; status: string; reason?: string }> = [];
    for (const audit of serverAudits({ url, fetchFn: fetch })) {
      const result = await audit.fn();
      results.push({ id: audit.id, name: audit.name, status: result.status, ...('reason' in result ? { reason: result.reason } : {}) });
    }
    expect(results.length).toBeGreaterThan(50);
    expect(results.filter((r) => r.status === 'error')).toEqual([]);
    expect(results.filter((r) => r.status === 'warn').map((r) => r.id)).toEqual(DELIBERATE);
  });
});
