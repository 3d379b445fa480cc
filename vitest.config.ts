import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/paths/**/*.test.ts'],
          environment: 'node',
          // The path tests walk whole machines (thousands of transitions): seconds alone, more on a loaded
          // machine. Speed is the benchmarks' business (docs/testing.md), not a test's time-out.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Each file opens its own database; PGlite instances are memory-heavy, so keep files serial.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
