import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['sandbox/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one on a two-core CI machine, where the
    // sandbox's tests wait on git and SQLite much of the time (two workers: 4.8 min down to 2.8)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
  },
});
