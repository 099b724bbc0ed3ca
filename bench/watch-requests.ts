import type { Page, Request } from '@playwright/test';

/** The page's requests from now on that `matches` picks: their URLs, and the most in flight at once. */
export function watchRequests(page: Page, matches: (request: Request) => boolean) {
  const seen = { count: 0, inFlight: 0, maxInFlight: 0, urls: [] as string[] };
  const onRequest = (request: Request) => {
    if (!matches(request)) return;
    seen.count++;
    seen.urls.push(request.url());
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
  };
  const onDone = (request: Request) => {
    if (matches(request)) seen.inFlight--;
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  const stop = () => {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  };
  return { seen, stop };
}
