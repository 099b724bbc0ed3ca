import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Every axe violation on the page as it stands, whatever its impact: there are none to tolerate.
 * Legacy mode runs axe once in the page instead of opening a second page (with a second copy of
 * axe) to merge per-frame results (the console has no frames), and only violations are detailed:
 * building selectors and HTML for every passing node was most of each run's time.
 */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] }).analyze();
  return result.violations.map((violation) => `${screen}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(' | ')}`);
}
