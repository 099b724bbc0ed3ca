import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** User text that would run script if it reached the page as HTML: each sets `window.__xss`. */
export const XSS_CORPUS = [
  '<img src=x onerror="window.__xss = true">',
  '<svg onload="window.__xss = true"></svg>',
  '[click](javascript:window.__xss=true)',
  '<a href="javascript:window.__xss=true">link</a>',
  '<iframe src="javascript:window.__xss=true"></iframe>',
  '![x](x" onerror="window.__xss=true)',
  '<details open ontoggle="window.__xss = true">',
  '<script>window.__xss = true</script>',
];

/** Once the page has settled: nothing ran, no script link and no event handler attribute is in the document. */
export async function expectNoScriptRan(page: Page): Promise<void> {
  // what a handler would run has had its chance: images failed, the details toggled
  await page.waitForLoadState('networkidle');
  const found = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: unknown }).__xss,
    scriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
    handlers: [...document.querySelectorAll('*')].filter((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
  }));
  expect(found).toEqual({ flag: undefined, scriptLinks: 0, handlers: 0 });
}
