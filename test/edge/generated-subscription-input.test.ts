/**
 * Bad input to subscriptions, generated: every root field of Subscription is subscribed to over one graphql-ws socket
 * (the production entry, as a live display connects), with variables made from its argument types
 * (test/support/bad-variables.ts), as staff and without the token. A display keeps one socket for all of its
 * subscriptions, so a bad one must cost only itself: each answer is its first event (a state-first subscription), an
 * `error` message for that operation with GraphQL errors and no masked unexpected one, or nothing yet; and the socket
 * is never closed by the server. FUZZ_SEED replays a seed; FUZZ_RUNS widens a run.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildSchema, type FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { fuzzRuns } from '../support/bad-input.ts';
import { operationFor, orderSeeds, variablesFor } from '../support/bad-variables.ts';
import { afterThisTest } from '../support/gateway.ts';
import { gatewayOnFile } from '../support/stored-rows.ts';

/** How long a subscription that has nothing to say yet is given before it is left. */
const QUIET_MS = 300;

type Outcome = { kind: 'next'; value: FormattedExecutionResult<Record<string, unknown>, unknown> } | { kind: 'error'; error: unknown } | { kind: 'complete' } | { kind: 'quiet' };

describe('bad input to subscriptions over graphql-ws, generated for every root field', () => {
  it('answers each with an event or an error of its own, never an unexpected one, and keeps the socket open', { timeout: 600_000 }, async () => {
    const { t, base } = await gatewayOnFile();
    const order = await t.createOrder({ email: 'fuzz@example.com' });
    const seeds = { ...orderSeeds(order), siteId: fc.constant(t.siteId) };
    const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
    let closes = 0;
    const connect = (authorization?: string) => {
      const client = createClient({
        url: `${base.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        // graphql-ws's client closes its own socket (1000) once no operation is left, unless told to wait: any close
        // counted below must then be the server's.
        lazyCloseTimeout: 600_000,
        ...(authorization ? { connectionParams: { authorization } } : {}),
        on: { closed: () => closes++ },
      });
      afterThisTest(async () => client.dispose());
      return client;
    };
    const clients = [connect(`Bearer ${t.adminToken}`), connect()];

    for (const client of clients) {
      for (const field of Object.values(schema.getSubscriptionType()!.getFields())) {
        const query = operationFor('subscription', field);
        const first = (variables: Record<string, unknown>) =>
          new Promise<Outcome>((resolve) => {
            let end = () => {};
            const timer = setTimeout(() => (end(), resolve({ kind: 'quiet' })), QUIET_MS);
            const settle = (outcome: Outcome) => (clearTimeout(timer), end(), resolve(outcome));
            end = client.subscribe({ query, variables }, { next: (value) => settle({ kind: 'next', value }), error: (error) => settle({ kind: 'error', error }), complete: () => settle({ kind: 'complete' }) });
          });
        await fc.assert(
          fc.asyncProperty(variablesFor(field, seeds), async (variables) => {
            const outcome = await first(variables);
            const what = `${field.name}(${JSON.stringify(variables).slice(0, 300)}) gave ${JSON.stringify(outcome).slice(0, 400)}`;
            expect(closes, `${what}\nthe server closed the socket`).toBe(0);
            const errors = outcome.kind === 'next' ? (outcome.value.errors ?? []) : outcome.kind === 'error' ? outcome.error : [];
            // An `error` message carries GraphQL errors; anything else (a CloseEvent, an Error) is the socket failing.
            expect(Array.isArray(errors), what).toBe(true);
            for (const error of errors as Array<{ message: string; extensions?: { code?: string } }>) {
              expect(error.message, what).not.toBe('Unexpected error.');
              expect(error.extensions?.code, what).not.toBe('INTERNAL_SERVER_ERROR');
            }
          }),
          // 40 subscriptions per field with arguments (6 for the others, which only the token varies): about 15 s here.
          fuzzRuns(field.args.length > 0 ? 40 : 6),
        );
      }
    }
  });
});
