import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['sandbox/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
