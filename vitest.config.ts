import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real sockets and real SQLite files: give slow shared CI cores room, but never hide a hang.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
