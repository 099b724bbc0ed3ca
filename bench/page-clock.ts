import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { ConnectPage } from '../e2e/pages/connect.ts';
import { Shell } from '../e2e/pages/shell.ts';

/**
 * The browser figures' clock: when each node entered the document, when an element's aria-label
 * last changed (a count's link is renamed once its total arrives), and when the last click came.
 * performance.now() counts from the document's navigation start.
 */
interface PageClock {
  clickAt: number;
  addedAt: WeakMap<Node, number>;
  relabelledAt: WeakMap<Node, number>;
}

/** Installed before any script of every document (an init script: it must stand alone). */
function installPageClock(): void {
  const clock: PageClock = { clickAt: -1, addedAt: new WeakMap(), relabelledAt: new WeakMap() };
  (window as unknown as { benchClock: PageClock }).benchClock = clock;
  // capture phase on window: before the router's own click handler runs
  window.addEventListener('click', () => (clock.clickAt = performance.now()), { capture: true });
  new MutationObserver((records) => {
    const now = performance.now();
    for (const record of records) {
      if (record.type === 'attributes') clock.relabelledAt.set(record.target, now);
      else record.addedNodes.forEach((node) => clock.addedAt.set(node, now));
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label'] });
}

/**
 * When each element reached its current state (the later of its subtree's insertion and its last
 * relabelling), and when the last click came.
 */
async function settledAt(elements: Locator): Promise<{ times: number[]; clickAt: number }> {
  return elements.evaluateAll((nodes) => {
    const clock = (window as unknown as { benchClock: PageClock }).benchClock;
    const times = nodes.map((element) => {
      let inserted: number | undefined;
      for (let node: Node | null = element; node && inserted === undefined; node = node.parentNode) inserted = clock.addedAt.get(node);
      if (inserted === undefined) throw new Error('the page clock saw no insertion of the element');
      return Math.max(inserted, clock.relabelledAt.get(element) ?? -1);
    });
    return { times, clickAt: clock.clickAt };
  });
}

/** ms from the last click to the moment the last of `elements` settled; throws if one was there before the click. */
export async function settledAfterClick(elements: Locator): Promise<number> {
  const { times, clickAt } = await settledAt(elements);
  if (clickAt < 0 || times.some((time) => time < clickAt)) throw new Error('the element was on the page before the click');
  return Math.max(...times) - clickAt;
}

/**
 * A browser context with the page clock, connected through the real connect flow without
 * "remember" (the session sits in sessionStorage and survives reloads of the tab).
 */
export async function connectedPage(
  browser: Browser, baseURL: string, token: string, stepTimeoutMs: number,
  options: { clock?: () => void; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport });
  // a figure with its own clock brings it; the others share the page clock
  await context.addInitScript(options.clock ?? installPageClock);
  const page = await context.newPage();
  page.setDefaultTimeout(stepTimeoutMs);
  const connect = new ConnectPage(page);
  await connect.goto();
  await connect.instanceUrl.fill(baseURL);
  await connect.accessToken.fill(token);
  await connect.submit.click();
  await new Shell(page).areas.waitFor();
  return { context, page };
}
