import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// The suites that talk to the database and the event bus run a second time on PostgreSQL (and Redis) when
// TEST_DATABASE_URL (and TEST_REDIS_URL) are set; see test/support/databases.ts.
const DATABASE_FACING = ['test/rest/**/*.test.ts', 'test/graphql/**/*.test.ts', 'test/live/**/*.test.ts', 'test/services/**/*.test.ts', 'test/scheduler/**/*.test.ts', 'test/payments/**/*.test.ts', 'test/platform/**/*.test.ts', 'test/notifications/**/*.test.ts', 'test/webhooks/**/*.test.ts', 'test/agents/**/*.test.ts'];

// The suites whose GraphQL goes through test/support/gateway.ts's `gql`: run again over the production entry, the
// node:http handler on a real port with its fast JSON path (SLEEVE_TEST_ENTRY=node), so that path passes every
// suite yoga's Fetch handler passes. Only the files that call `gql`: the entry changes nothing else (REST stays in
// memory, and the suites with their own server or socket run on the production entry already), and a second run of
// the other 25 cost about 50 s of CI for nothing. Nor the files whose every gateway comes from gatewayOver
// (support/graphql-transports.ts): they run over both the in-memory handler and the production entry themselves, and
// their `gql` is the transport's, so a second run was the first again (about 20 s of worker time).
const GRAPHQL_DIRECTORIES = ['test/graphql', 'test/live', 'test/notifications', 'test/payments', 'test/platform'];
const runsOverBothTransports = (text: string) => text.includes('graphql-transports.ts') && !/\btestGateway\s*\(/u.test(text);
const GRAPHQL_SUITES = GRAPHQL_DIRECTORIES.flatMap((directory) =>
  readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${directory}/${file}`)
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /\bgql\s*[<(]/u.test(text) && !runsOverBothTransports(text);
    }),
);

export default defineConfig({
  resolve: {
    // One graphql instance for everyone: the packages that `require` it (Pothos, yoga's tools) get the CommonJS
    // build, so our imports must too, or graphql-js refuses types "from another module or realm".
    alias: [{ find: /^graphql$/u, replacement: require.resolve('graphql') }],
  },
  test: {
    // Real sockets and real SQLite files: give slow shared CI cores room, but never hide a hang.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker runs file after file in one module graph (within one project: vitest never shares a worker across
    // projects, so each project's env holds). Isolating every file re-imported yoga, Pothos, kysely and the whole
    // gateway for each of ~300 file runs: 176 s of the sqlite project's 308 s on this 2-core machine, 12 s without.
    // So no support module registers a hook when imported (test/support/leftovers.ts); caches of what never changes
    // (the OpenAPI document, compiled schemas) are all the state they keep.
    isolate: false,
    // Two suites at a time at least, whatever the cores: most of a suite's time is spent waiting on sockets, child
    // processes, browsers and fsync, so a second worker nearly halves the run on a 2-core machine (1,080 s → 634 s
    // measured), where vitest's default (cores − 1) would run one suite at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each worker's PostgreSQL database of its own (test/support/worker-database.ts says why), and the hooks that undo
    // what each test made: a setup file runs for every file, a module's top-level hook only for the first (isolate).
    setupFiles: ['test/support/worker-database.ts', 'test/support/per-file-hooks.ts'],
    projects: [
      { extends: true as const, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      { extends: true as const, test: { name: 'production-entry', include: GRAPHQL_SUITES, env: { SLEEVE_TEST_ENTRY: 'node' } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true as const, test: { name: 'postgres', include: DATABASE_FACING, env: { SLEEVE_TEST_BACKEND: 'postgres' } } }]
        : []),
    ],
  },
});
