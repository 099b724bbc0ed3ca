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

/** The launch options the e2e tests and the bench share. */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  return { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS };
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
