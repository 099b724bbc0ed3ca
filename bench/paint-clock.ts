import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import { Shell } from '../e2e/pages/shell.ts';
import { connectedPage } from './page-clock.ts';

/**
 * The paint clock: when a target element was first painted, by the Element Timing API (the
 * presentation time of the frame that showed its text), with the pointer press that led to it, and
 * the page's LCP, FCP and long tasks. Installed before any script of every document.
 * performance.now() and event.timeStamp count from the document's navigation start.
 */
export interface Target {
  /** A table named by its caption (matched by this regular expression, case-insensitive): its first data row. */
  caption?: string;
  /** Or any element matching this CSS selector. */
  selector?: string;
  /** With `selector`: the first match whose text starts with this (a status that replaces another). */
  text?: string;
  /**
   * Time its paint by the first animation frame in which it is in the viewport, not by Element
   * Timing: an element first painted outside the viewport of a scrolled box and then scrolled into
   * it is never reported by Element Timing (the compositor moves it without painting it again).
   */
  byFrame?: boolean;
}

interface Readings {
  /** The last `mousedown`'s timestamp (the press), and the last `click`'s. */
  pressAt: number;
  clickAt: number;
  /** The armed target: when it entered the document, the first frame with it in view, its Element Timing paint. */
  insertedAt: number;
  frameAt: number;
  paintedAt: number;
  fcp: number;
  lcp: number;
  longTasks: Array<{ start: number; duration: number }>;
}

interface PaintClock extends Readings {
  target: Target;
  element: Element | null;
  /** The armed target has been painted: the readings for it are complete. */
  done: boolean;
  /** Which arming (of which document) a report is for: a late report of an earlier one is not taken for this one. */
  id: string;
  arm(target: Target): void;
}

/** The page's way to tell the bench its target is painted (a CDP binding: see `painted`). */
const BINDING = '__benchPainted';

/** The init script (it must stand alone): the page's clock, watching for `initial` from the first script on. */
function installPaintClock(initial: Target): void {
  // no named inner functions: the bundler of this file would wrap them in a helper the page lacks
  const clock: PaintClock & { find(): Element | null; look(): void; frame(element: Element): void; report(): void } = {
    target: initial, pressAt: -1, clickAt: -1, element: null, insertedAt: -1, frameAt: -1, paintedAt: -1, fcp: -1, lcp: -1, longTasks: [], done: false, id: String(Math.random()),
    arm(target) {
      clock.target = target;
      clock.element = null;
      clock.insertedAt = clock.frameAt = clock.paintedAt = -1;
      clock.done = false;
      clock.id = String(Math.random());
      clock.look();
    },
    // the binding is the bench's (the page's own code never calls it); the name is repeated: this function stands alone
    report() {
      if (clock.done || clock.frameAt < 0 || (!clock.target.byFrame && clock.paintedAt < 0)) return;
      clock.done = true;
      const binding = (window as unknown as Record<string, unknown>).__benchPainted;
      if (typeof binding === 'function') binding(clock.id);
    },
    find() {
      const { caption, selector, text } = clock.target;
      if (selector && text !== undefined) return [...document.querySelectorAll(selector)].find((element) => element.textContent?.trim().startsWith(text)) ?? null;
      if (selector) return document.querySelector(selector);
      if (!caption) return null;
      const named = new RegExp(caption, 'i');
      for (const table of document.querySelectorAll('table')) {
        if (!named.test(table.querySelector(':scope > caption')?.textContent ?? table.getAttribute('aria-label') ?? '')) continue;
        const row = [...table.querySelectorAll(':scope > tbody > tr')].find((tr) => tr.querySelector(':scope > td') && !tr.hasAttribute('aria-hidden'));
        if (row) return row;
      }
      return null;
    },
    // Element Timing reports text under the element that holds it: every element of the target is
    // marked, in the same task that inserted it (a mutation callback runs before the next paint)
    look() {
      if (clock.element || (!clock.target.caption && !clock.target.selector)) return;
      const element = clock.find();
      if (!element) return;
      clock.element = element;
      clock.insertedAt = performance.now();
      for (const node of [element, ...element.querySelectorAll('*')]) node.setAttribute('elementtiming', 'bench-target');
      requestAnimationFrame(() => clock.frame(element));
    },
    // the first frame in which the element is in the viewport
    frame(element) {
      if (clock.element !== element) return;
      // replaced before any frame showed it (a virtualized list swaps its first rows): watch its successor
      if (!element.isConnected) {
        clock.element = null;
        clock.look();
        return;
      }
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.bottom > 0 && box.top < innerHeight) {
        clock.frameAt = performance.now();
        clock.report();
      } else requestAnimationFrame(() => clock.frame(element));
    },
  };
  (window as unknown as { paintClock: PaintClock }).paintClock = clock;
  new MutationObserver(() => clock.look()).observe(document, { childList: true, subtree: true });
  window.addEventListener('mousedown', (event) => (clock.pressAt = event.timeStamp), { capture: true });
  window.addEventListener('click', (event) => (clock.clickAt = event.timeStamp), { capture: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { identifier: string; element: Element | null; renderTime: number; loadTime: number }>) {
      if (entry.identifier !== 'bench-target' || !clock.element || !(entry.element === clock.element || clock.element.contains(entry.element))) continue;
      const at = entry.renderTime || entry.loadTime;
      if (clock.paintedAt < 0 || at < clock.paintedAt) clock.paintedAt = at;
    }
    clock.report();
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') clock.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) clock.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) clock.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

export async function addPaintClock(context: BrowserContext, initial: Target = {}): Promise<void> {
  await context.addInitScript(installPaintClock, initial);
}

/** Watches for `target` from now on (a new screen's row is a new element). */
export async function arm(page: Page, target: Target): Promise<void> {
  await page.evaluate((target) => (window as unknown as { paintClock: PaintClock }).paintClock.arm(target), target);
}

export interface Painted extends Readings {
  byFrame: boolean;
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The page's CDP session with the clock's binding: added once, it holds for every later document
 * of the page. Called before a cold load, so that nothing is added while the page loads.
 */
export function clockSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = (async () => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Runtime.enable');
      await cdp.send('Runtime.addBinding', { name: BINDING });
      return cdp;
    })();
    sessions.set(page, session);
  }
  return session;
}

/**
 * Waits until the armed target has been painted (and the frame after it has run), then reads the
 * clock; `at` is its paint. The page says so through a CDP binding, and the wait is a raw CDP
 * check: Playwright's waitForFunction evaluated its injected script in a loading page (45 to 210
 * ms of the main thread at 4x CPU, in the middle of a cold load) and polled it every 50 ms.
 */
export async function painted(page: Page, timeoutMs: number): Promise<Painted & { at: number }> {
  const cdp = await clockSession(page);
  // reports come in from now on; the one awaited is the current arming's, known once the clock is read
  const reports: string[] = [];
  let wanted: ((id: string) => void) | undefined;
  const onCall = (event: { name: string; payload: string }) => {
    if (event.name !== BINDING) return;
    reports.push(event.payload);
    wanted?.(event.payload);
  };
  cdp.on('Runtime.bindingCalled', onCall);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'globalThis.paintClock ? { done: paintClock.done, id: paintClock.id } : null', returnByValue: true });
    // no clock yet (its document is only starting): the first report is this document's
    const clock = (result.value ?? { done: false, id: null }) as { done: boolean; id: string | null };
    // painted before the binding was there (a first document): the clock says so itself
    if (!clock.done && !(clock.id !== null && reports.includes(clock.id)) && !(clock.id === null && reports.length > 0)) {
      await new Promise<void>((resolve, reject) => {
        wanted = (reported) => (clock.id === null || reported === clock.id) && resolve();
        timer = setTimeout(() => reject(new Error(`the target was not painted within ${timeoutMs} ms`)), timeoutMs);
      });
    }
  } finally {
    cdp.off('Runtime.bindingCalled', onCall);
    clearTimeout(timer);
  }
  const clock = await readClock(page);
  return { ...clock, at: clock.byFrame ? clock.frameAt : clock.paintedAt };
}

/** Reads the clock as it is (LCP and long tasks keep coming in after the target's paint). */
export async function readClock(page: Page): Promise<Painted> {
  return page.evaluate(() => {
    const { target, pressAt, clickAt, insertedAt, frameAt, paintedAt, fcp, lcp, longTasks } = (window as unknown as { paintClock: PaintClock }).paintClock;
    return { byFrame: Boolean(target.byFrame), pressAt, clickAt, insertedAt, frameAt, paintedAt, fcp, lcp, longTasks };
  });
}

/**
 * Full loads of `path` (after the home screen, so nothing of the previous run is in the page) in
 * a context of its own whose clock watches for `target` from each document's first script: the
 * first frame showing it, in ms from navigation. Resolves with the page, for more readings.
 */
export async function firstPaints(browser: Browser, baseURL: string, token: string, path: string, target: Target, { runs: count, timeoutMs }: { runs: number; timeoutMs: number }): Promise<{ runs: number[]; page: Page; context: BrowserContext }> {
  const { context, page } = await connectedPage(browser, baseURL, token, timeoutMs, { viewport: { width: 1400, height: 900 } });
  await addPaintClock(context, target);
  await clockSession(page);
  const load = async () => {
    await page.goto('/');
    await new Shell(page).areas.waitFor();
    await page.goto(path);
    const { at } = await painted(page, timeoutMs);
    await page.waitForLoadState('networkidle');
    return at;
  };
  // one load first, not counted: the browser fetches the route's chunks once
  await load();
  const runs: number[] = [];
  for (let run = 0; run < count; run++) runs.push(await load());
  return { runs, page, context };
}
