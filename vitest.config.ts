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
    // the files share their workers' module cache: each importing the sandbox afresh took 75 s of
    // the 3 min (every file restores what it stubs; shuffled orders pass too)
    isolate: false,
  },
});
