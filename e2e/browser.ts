import type { Page } from '@playwright/test';
import fs from 'node:fs';
import { chromium } from '@playwright/test';

/** Debian's package; used when Playwright's own build was never downloaded (it cannot be here). */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Playwright's own Chromium when it is on disk, else the system's; undefined when neither is. */
export function chromiumExecutable(): string | undefined {
  const bundled = chromium.executablePath();
  if (bundled && fs.existsSync(bundled)) return bundled;
  return fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

/** Flags for a root user in a container with a small /dev/shm and no GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

/** The bench's: the full Chromium, the browser users run, whose frames the figures count. */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  return { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS };
}

/**
 * Debian's chromium-headless-shell: the old headless mode, the one Playwright itself runs headless
 * tests in. It has less to do than the full browser: the e2e suite ran in 11.4 min instead of 13.5.
 */
export const SYSTEM_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** The e2e tests': the headless shell when it is installed (scripts/ensure-chromium.mjs), else the full Chromium. */
export function testLaunchOptions(): { executablePath?: string; args: string[] } {
  return fs.existsSync(SYSTEM_HEADLESS_SHELL) ? { executablePath: SYSTEM_HEADLESS_SHELL, args: CHROMIUM_ARGS } : chromiumLaunchOptions();
}

/** What Chromium does with "Block sites from saving data": the mere access to localStorage or sessionStorage throws. */
export async function blockSiteData(page: Page): Promise<void> {
  await page.addInitScript(() => {
    for (const name of ['localStorage', 'sessionStorage']) {
      Object.defineProperty(window, name, {
        get() {
          throw new DOMException(`Failed to read the '${name}' property from 'Window': Access is denied for this document.`, 'SecurityError');
        },
      });
    }
  });
}
