import { defineConfig } from 'vitest/config';

// Unit suites run in parallel; suites that drive real containers live in test/e2e and are
// slower, so they get long timeouts and run one file at a time (see scripts/test.mjs).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
