import { defineConfig } from 'vitest/config';

// Two projects: fast unit suites in parallel, and end-to-end suites that drive real
// containers, one file at a time (they share the engine and two cores), with long timeouts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
