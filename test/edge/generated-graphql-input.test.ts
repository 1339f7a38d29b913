/**
 * Bad input through GraphQL, generated: every root field of Query and Mutation that takes arguments is called over a
 * real socket (the production entry, its fast JSON path included) with variables fast-check makes from the schema's
 * own argument types (test/support/bad-variables.ts), as staff, with no token or with an odd one. Names that say what
 * exists (an order number, its payToken, the site id) often get a value that does, so most calls get past "not
 * found" to the rules.
 *
 * Each answer must be below 500, a GraphQL response (data or errors), a 4xx when it has no data (GraphQL over HTTP's
 * rule for application/graphql-response+json), and carry no masked unexpected error. An answer
 * that refuses the call — an error, or an ApiError that is no duplicate and no payment outcome — must leave every
 * table as it was (test/support/stored-rows.ts). Delivery bookkeeping is compared by its rows' keys, and attempts not
 * at all: a valid call may register an endpoint and queue a notification, whose delivery then runs in the background
 * (test/edge/generated-bad-input.test.ts compares those tables whole for the REST door, where nothing is delivered).
 * FUZZ_SEED replays the seed fast-check prints; FUZZ_RUNS widens a run.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, headerValue } from '../support/bad-input.ts';
import { operationFor, orderSeeds, variablesFor, type Seeds } from '../support/bad-variables.ts';
import { changedTables, DELIVERY_BOOKKEEPING, gatewayOnFile, storedRows } from '../support/stored-rows.ts';

/** ApiError codes that are outcomes which store something (a fresh duplicate payToken, a declined charge). */
const STORING_OUTCOMES = new Set(['DUPLICATE', 'DECLINED', 'PAYMENT_ERROR', 'PAYMENT_UNKNOWN']);

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

describe('bad input through GraphQL, generated for every root field with arguments', () => {
  it('never answers 500 nor an unexpected error, and a refusal stores nothing', { timeout: 600_000 }, async () => {
    const { t, file, base } = await gatewayOnFile();
    const order = await t.createOrder({ email: 'fuzz@example.com' });
    const seeds: Seeds = {
      ...orderSeeds(order),
      siteId: fc.constant(t.siteId),
      accountId: fc.constant('acct-1'),
      url: fc.constant('https://merchant.example/hooks'),
      triggeredBy: fc.constant('fuzz'),
    };
    const authorization = fc.option(headerValue(`Bearer ${t.adminToken}`), { nil: undefined });

    const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
    const roots = [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const;
    for (const [kind, root] of roots) {
      for (const field of Object.values(root.getFields()).filter((f) => f.args.length > 0)) {
        const query = operationFor(kind, field);
        await fc.assert(
          fc.asyncProperty(variablesFor(field, seeds), authorization, async (variables, token) => {
            const stored = storedRows(file, DELIVERY_BOOKKEEPING);
            const response = await fetch(`${base}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...(token === undefined ? {} : { authorization: token }) },
              body: JSON.stringify({ query, variables }),
            });
            const text = await response.text();
            const what = `${field.name}(${JSON.stringify(variables).slice(0, 300)}) answered ${response.status}: ${text.slice(0, 400)}`;
            expect(response.status, what).toBeLessThan(500);
            const answer = JSON.parse(text) as GraphQLAnswer;
            expect('data' in answer || 'errors' in answer, what).toBe(true);
            // GraphQL over HTTP, application/graphql-response+json: no `data` entry MUST be a 4xx or 5xx.
            if (!('data' in answer)) expect(response.status, what).toBeGreaterThanOrEqual(400);
            for (const error of answer.errors ?? []) {
              expect(error.message, what).not.toBe('Unexpected error.');
              expect(error.extensions?.code, what).not.toBe('INTERNAL_SERVER_ERROR');
            }
            const result = answer.data?.[field.name] as { __typename?: string; code?: string } | null | undefined;
            const refused = (answer.errors?.length ?? 0) > 0 || (result?.__typename === 'ApiError' && !STORING_OUTCOMES.has(result.code!));
            if (refused) expect(changedTables(stored, storedRows(file, DELIVERY_BOOKKEEPING)), `${what}\nchanged tables`).toEqual([]);
          }),
          // 60 calls per root field: about 15 s here.
          fuzzRuns(60),
        );
      }
    }
  });
});
