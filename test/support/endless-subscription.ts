/**
 * A real yoga whose one subscription field yields `value(n)` every `everyMs` until it is ended, and a count of those
 * running (an ended subscription's generator has been finalized): for tests of what ends a stream's operations
 * (test/graphql/sse-single-connection-*.test.ts).
 */
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';

export function endlessSubscriptionYoga(options: { field: string; type: string; value: (n: number) => unknown; everyMs: number; plugins: Array<Plugin<any, any>> }) {
  const state = { running: 0 };
  const { field, value, everyMs } = options;
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: `type Query { hello: String } type Subscription { ${field}: ${options.type} }`,
      resolvers: {
        Subscription: {
          [field]: {
            subscribe: async function* () {
              state.running += 1;
              try {
                for (let n = 0; ; n++) {
                  yield { [field]: value(n) };
                  await new Promise((resolve) => setTimeout(resolve, everyMs));
                }
              } finally {
                state.running -= 1;
              }
            },
          },
        },
      },
    }),
    plugins: options.plugins as Plugin[],
    logging: false,
  });
  return { yoga, state };
}
