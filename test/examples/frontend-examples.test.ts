/**
 * The README's "Frontend apps" examples are the files in examples/, shown there verbatim (a test below fails when the
 * README and a file part), and each one runs here as it is, with plain `node`, against a real server on a real
 * port: Apollo Client (a union result, the normalised cache updated by a subscription event), urql (query, mutation,
 * subscription), graphql-ws on Node 20 (webSocketImpl, shouldRetry) and graphql-sse in its single connection mode.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createGateway, startServer } from '../../src/server.ts';
import { afterThisTest } from '../support/gateway.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** `nodeArgs`: e.g. `--conditions=development`, under which Apollo Client logs its warnings (to stderr, kept here). */
let lastStderr = '';
async function runExample(file: string, nodeArgs: string[] = []): Promise<string[]> {
  // The system clock, in memory: the hold's ticks need time to pass (a test gateway's manual clock holds it still).
  const gateway = await createGateway();
  afterThisTest(() => gateway.dispose());
  const server = await startServer(gateway, { port: 0, host: '127.0.0.1' });
  afterThisTest(() => server.close(1_000));
  const { stdout, stderr } = await run(process.execPath, [...nodeArgs, resolve(ROOT, 'examples', file)], {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_URL: server.url },
    timeout: 20_000,
  });
  lastStderr = stderr;
  return stdout.trim().split('\n');
}

describe('the README frontend examples', () => {
  // A display must outlast a long outage and come back within seconds of the gateway: graphql-ws doubles its wait
  // without end and graphql-sse gives up after five tries (about 40 s), as a frontend review measured.
  it.each(['apollo-client.mjs', 'urql.mjs', 'graphql-ws.mjs', 'graphql-sse.mjs'])('examples/%s retries for ever, waiting at most 10 s', (file) => {
    const source = readFileSync(resolve(ROOT, 'examples', file), 'utf8');
    expect(source).toMatch(/retryAttempts: Infinity/u);
    expect(source).toMatch(file === 'graphql-sse.mjs' ? /\bretry\b[^A]*Math\.min\(10_000/u : /retryWait[^A]*Math\.min\(10_000/u);
    const call = source.slice(source.search(/create(Ws)?Client\(\{/u));
    expect(call.slice(0, call.indexOf('});'))).toMatch(file === 'graphql-sse.mjs' ? /\bretry $/u : /\bretryWait\b/u);
  });

  it.each(['apollo-client.mjs', 'urql.mjs', 'graphql-ws.mjs', 'graphql-sse.mjs'])('shows examples/%s verbatim', (file) => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const source = readFileSync(resolve(ROOT, 'examples', file), 'utf8');
    expect(readme).toContain(source.trim());
  });

  it('Apollo Client: a union result, then a subscription event updates the cached order', async () => {
    expect(await runExample('apollo-client.mjs')).toEqual(['created 1001 AWAITING_PAYMENT', 'cached status RECEIVED']);
  });

  it('Apollo Client in development: no warning (a union without possibleTypes loses data: "Cannot match inline fragment")', async () => {
    expect(await runExample('apollo-client.mjs', ['--conditions=development'])).toEqual(['created 1001 AWAITING_PAYMENT', 'cached status RECEIVED']);
    expect(lastStderr).not.toMatch(/possibleTypes|Cannot match|might be lost/iu);
  });

  it('urql: a query, a mutation and a subscription', async () => {
    expect(await runExample('urql.mjs')).toEqual(['sizes 13-inch, 14-inch, 15-inch, 16-inch', 'created 1001 AWAITING_PAYMENT', 'update AWAITING_PAYMENT']);
  });

  it('graphql-ws on Node 20: the hold countdown of a new order', async () => {
    const lines = await runExample('graphql-ws.mjs');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^tick \d+ AWAITING_PAYMENT$/u);
  });

  it('graphql-sse in its single connection mode: a mutation, then the hold countdown, on one stream', async () => {
    const lines = await runExample('graphql-sse.mjs');
    expect(lines[0]).toBe('created 1001 AWAITING_PAYMENT');
    expect(lines).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line).toMatch(/^tick \d+ AWAITING_PAYMENT$/u);
  });
});
