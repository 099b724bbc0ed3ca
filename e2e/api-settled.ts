import { expect, type Page, type Request } from '@playwright/test';

/**
 * Waits until no API request of the page has been in flight for 300 ms: the screen's data, and
 * whatever it widens, are in. Unlike the network going idle this leaves out the scripts the screen
 * prefetches when idle, which change no layout: waiting for them doubled the narrow-screens test's time.
 */
export function watchApiRequests(page: Page): () => Promise<void> {
  const QUIET_MS = 300;
  const inFlight = new Set<Request>();
  let lastSettled = Date.now();
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
  page.on('request', (request) => void (isApi(request) && inFlight.add(request)));
  const settle = (request: Request) => {
    if (inFlight.delete(request)) lastSettled = Date.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return () => {
    // counted from the call too: a query the screen starts after its heading shows has had time to begin
    const since = Date.now();
    return expect.poll(() => inFlight.size === 0 && Date.now() - Math.max(lastSettled, since) >= QUIET_MS, { intervals: [50] }).toBe(true);
  };
}
