/**
 * Kept answers (graphql-server/answer-cache.ts, docs/graphql.md#kept-answers): which operations take part, and that
 * a kept answer never outlives the option set it was made from — published on this instance, or on another one and
 * synced here (the other instance's publish arrives as `invalidate()`, src/orders/cache-sync-service.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { AnswerCache, answerCacheFor } from '../../graphql-server/answer-cache.ts';
import type { Services } from '../../src/services.ts';
import { afterThisTest, testGateway } from '../support/gateway.ts';
import { gatewayOver } from '../support/graphql-transports.ts';

const REDIS = process.env.TEST_REDIS_URL;
const OPTIONS = { sizes: [{ value: '13-inch' }], fonts: [{ value: 'Block' }], threads: [{ value: 'Gold', color: '#c9a227' }], charLimit: 12 };

function operationOf(source: string): OperationDefinitionNode {
  return parse(source).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}

describe('which operations keep their answer', () => {
  it.each([
    ['{ sleeveOptions { sizes charLimit } }', true],
    ['query Options { __typename sleeveOptions { version threadChoices { value color } } }', true],
    ['{ sleeveOptions { ...F } } fragment F on SleeveOptions { charLimit }', true],
    // Anything that may answer differently from one request to the next, or that is not only the snapshot.
    ['{ sleeveOptions { charLimit } eventInfo }', false],
    ['{ eventInfo }', false],
    ['{ __typename }', false],
    ['query ($all: Boolean!) { sleeveOptions { charLimit sizes @include(if: $all) } }', false],
    ['{ sleeveOptions @skip(if: false) { charLimit } }', false],
    ['{ ... on Query { sleeveOptions { charLimit } } }', false],
    ['mutation { setEventInfo(text: "x") }', false],
    ['subscription { sleeveOptionsChanged { charLimit } }', false],
  ])('%s: %s', async (source, keeps) => {
    const { gateway } = await testGateway();
    expect(answerCacheFor(gateway.schema, operationOf(source)) !== null).toBe(keeps);
  });

  it('keeps an answer only with the snapshots it was made from, each compared by identity', () => {
    let set: object | undefined = { version: 1 };
    const services = { options: { cached: () => set } } as unknown as Services;
    const cache = new AnswerCache([(s) => s.options.cached()]);
    expect(cache.kept(services)).toBeUndefined();
    cache.keep(cache.snapshots(services)!, '{"data":1}');
    expect(cache.kept(services)).toBe('{"data":1}');
    set = { version: 1 }; // equal, but another object: a set loaded again
    expect(cache.kept(services)).toBeUndefined();
    set = undefined; // not loaded
    expect(cache.kept(services)).toBeUndefined();
    expect(cache.snapshots(services)).toBeUndefined();
  });
});

describe('a kept answer on the production entry (the fast path)', () => {
  const query = { query: '{ sleeveOptions { version charLimit } }' };
  async function options(t: Awaited<ReturnType<typeof gatewayOver>>) {
    const response = await t.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) });
    return (await response.json()).data.sleeveOptions as { version: number; charLimit: number };
  }

  // Which answer was kept is read from the cache itself (a spy that calls through): over HTTP a kept answer and a
  // fresh one are the same bytes. With REDIS_URL the rate limit is shared and answers by promise: kept all the same.
  const limits: Array<[string, Record<string, string>]> = [['in this process', {}]];
  if (REDIS) limits.push(['shared through Redis', { REDIS_URL: REDIS, REDIS_PREFIX: `kept-${randomUUID()}:` }]);
  it.each(limits)('answers from the kept answer once it is made, the rate limit %s', async (_name, env) => {
    const kept = vi.spyOn(AnswerCache.prototype, 'kept');
    try {
      const t = await gatewayOver('node', { env });
      for (let i = 0; i < 4; i++) expect(await options(t)).toEqual({ version: 1, charLimit: 20 }); // yoga, made and kept, kept, kept
      expect(kept.mock.results.map((result) => typeof result.value)).toEqual(['undefined', 'string', 'string']);
    } finally {
      kept.mockRestore();
    }
  });

  it('still counts each kept answer in the operations metric, and against no rate limit (docs/edge.md#options-reads)', async () => {
    const t = await gatewayOver('node', { env: { RATE_LIMIT_READ: '1' } });
    const send = () => t.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) });
    // yoga, made and kept, then kept three times: the options are refused to nobody.
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
    const metrics = await (await t.gateway.fetch(new Request('http://sleeve.test/metrics'))).text();
    expect(metrics).toContain('sleeve_graphql_operations_total{operation="anonymous",type="query",outcome="ok"} 5');
  });

  it('gives way to a set staff publish on this instance at once', async () => {
    const t = await gatewayOver('node');
    for (let i = 0; i < 3; i++) expect(await options(t)).toEqual({ version: 1, charLimit: 20 }); // yoga, then made and kept, then kept
    const published = await t.gql('mutation ($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { version } }', { input: OPTIONS }, { token: t.adminToken });
    expect(published.data.updateSleeveOptions.version).toBe(2);
    for (let i = 0; i < 2; i++) expect(await options(t)).toEqual({ version: 2, charLimit: 12 });
  });

  it('gives way to a set another instance published (synced here as invalidate) as soon as it is loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sleeve-kept-'));
    afterThisTest(async () => rmSync(dir, { recursive: true, force: true }));
    const env = { DATABASE_URL: `file:${join(dir, 'event.db')}` };
    const t = await gatewayOver('node', { env });
    for (let i = 0; i < 3; i++) expect(await options(t)).toEqual({ version: 1, charLimit: 20 });
    // Another instance's publish: the row is written by it, and this one hears of it and forgets its set.
    const other = await testGateway({ env });
    await other.gateway.services.options.update(OPTIONS);
    t.gateway.services.options.invalidate();
    expect(await options(t)).toEqual({ version: 2, charLimit: 12 }); // not loaded: yoga's promise path, nothing kept
    for (let i = 0; i < 2; i++) expect(await options(t)).toEqual({ version: 2, charLimit: 12 });
  });
});
