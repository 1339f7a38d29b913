import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql instance for everyone: the packages that `require` it (Pothos, yoga's tools) get the CommonJS
    // build, so our imports must too, or graphql-js refuses types "from another module or realm".
    alias: [{ find: /^graphql$/u, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Real sockets and real SQLite files: give slow shared CI cores room, but never hide a hang.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
