import { defineConfig } from '@playwright/test';
import { testLaunchOptions } from './e2e/browser.ts';

const ci = Boolean(process.env.CI);

/**
 * e2e against the built console (`vite build` first; `npm run test:e2e` does both). Each worker
 * starts its own server with a fresh demo sandbox (e2e/fixtures.ts), so no webServer here.
 */
export default defineConfig({
  testDir: 'e2e',
  // Playwright empties its output folder on start; a subfolder keeps Vitest's report beside it
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  forbidOnly: ci,
  // the machine has two cores
  workers: 2,
  retries: ci ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: testLaunchOptions(),
    trace: 'on-first-retry',
  },
});
