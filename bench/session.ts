import type { Browser, BrowserContext } from '@playwright/test';
import { connectedPage } from './page-clock.ts';

/** The tab's session storage after the real connect flow (without "remember"): what a signed-in tab holds. */
export async function signedInStorage(browser: Browser, baseURL: string, token: string, stepTimeoutMs: number): Promise<Record<string, string>> {
  const { context, page } = await connectedPage(browser, baseURL, token, stepTimeoutMs);
  try {
    return await page.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
  } finally {
    await context.close();
  }
}

/** Every tab of `context` starts signed in, as a reloaded tab does: its session storage is there before any script. */
export async function withSession(context: BrowserContext, storage: Record<string, string>): Promise<void> {
  await context.addInitScript((entries) => {
    for (const [key, value] of Object.entries(entries)) if (sessionStorage.getItem(key) === null) sessionStorage.setItem(key, value);
  }, storage);
}

/** A demo group or project by its full path, as the sandbox answers its administrator. */
export async function demoObject<T extends { id: number }>(server: { baseURL: string; adminToken: string }, kind: 'groups' | 'projects', path: string): Promise<T> {
  const answer = await fetch(`${server.baseURL}/api/v4/${kind}/${encodeURIComponent(path)}`, { headers: { 'PRIVATE-TOKEN': server.adminToken } });
  if (!answer.ok) throw new Error(`GET /${kind}/${path} answered ${answer.status}`);
  return (await answer.json()) as T;
}

/** The id of a demo group or project by its full path. */
export async function demoId(server: { baseURL: string; adminToken: string }, kind: 'groups' | 'projects', path: string): Promise<number> {
  return (await demoObject(server, kind, path)).id;
}
