import type { Page } from '@playwright/test';

/** The API answers the page gets from now on, as `status method path`: a test can say what was not asked. */
export function apiAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/v4/')) answers.push(`${response.status()} ${response.request().method()} ${pathname}`);
  });
  return answers;
}
