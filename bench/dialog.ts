import { chromium, type Locator, type Page } from '@playwright/test';
import { DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { press } from './click.ts';
import { addPaintClock, arm, painted } from './paint-clock.ts';
import { demoId, signedInStorage, withSession } from './session.ts';
import { emit, log, median, round } from './report.ts';

/**
 * A dialog's first opening on loopback: a pointer press on the button that opens it, to the frame
 * that paints the dialog's title (Element Timing), on a screen left idle first (its dialogs' code
 * preloaded, as a user reading the list gives it time to). Each run is a fresh document.
 */

const RUNS = 10;
const STEP_TIMEOUT_MS = 20_000;
// the time within which a response feels immediate (RAIL): this figure's goal is our own
const GOAL_MS = 100;
const IDLE_MS = 500;

interface DialogScreen {
  name: string;
  path: string;
  opener: (page: Page) => Locator;
  /** Where the dialog's visible title is: the palette's is for screen readers only, its field is painted instead. */
  painted: string;
}

export async function dialogFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const groupId = await demoId(server, 'groups', DEMO_PATHS.bigGroup);
    const projectId = await demoId(server, 'projects', DEMO_PATHS.issueTracker);
    const main = (name: string) => (page: Page) => page.getByRole('main').getByRole('button', { name, exact: true });
    const screens: DialogScreen[] = [
      { name: 'add_member', path: `/groups/${groupId}/members`, opener: main('Add member'), painted: '[role=dialog] .dialog__title' },
      { name: 'new_branch', path: `/projects/${projectId}/branches`, opener: main('New branch'), painted: '[role=dialog] .dialog__title' },
      { name: 'palette', path: `/projects/${projectId}/members`, opener: (page) => page.getByRole('button', { name: 'Search or go to…', exact: true }), painted: '[role=dialog] input' },
    ];
    const context = await browser.newContext({ baseURL: server.baseURL });
    await withSession(context, await signedInStorage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS));
    await addPaintClock(context);
    const page = await context.newPage();
    for (const screen of screens) {
      const samples: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.goto(screen.path);
        const opener = screen.opener(page);
        await opener.waitFor();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(IDLE_MS);
        // an input paints no text of its own: the first frame with it in view
        await arm(page, { selector: screen.painted, byFrame: screen.painted.endsWith('input') });
        await press(page, opener);
        const shown = await painted(page, STEP_TIMEOUT_MS);
        samples.push(shown.at - shown.pressAt);
      }
      log(`dialog ${screen.name}: ${samples.map((sample) => round(sample, 1)).join(', ')} ms`);
      emit({ name: `console.dialog_open_${screen.name}_ms`, value: round(median(samples), 1), unit: 'ms', goal: GOAL_MS });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
