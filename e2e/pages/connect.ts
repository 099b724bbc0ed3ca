import type { Locator, Page } from '@playwright/test';

/**
 * The connect screen (/connect). Locators are lazy; specs make the assertions. Each getter names
 * the accessibility contract it relies on, so a failing selector points at a broken contract.
 */
export class ConnectPage {
  constructor(readonly page: Page) {}

  goto(search = ''): Promise<unknown> {
    return this.page.goto(`/connect${search}`);
  }

  /** The page's only level-1 heading. */
  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Platform Console' });
  }

  /** The `<form>` is named by its heading (aria-labelledby): "Connect", or "New connection" beside saved ones. */
  get form(): Locator {
    return this.page.getByRole('form', { name: /^(Connect|New connection)$/ });
  }

  /** `<label for>` "Instance URL" on the URL input (Field). */
  get instanceUrl(): Locator {
    return this.page.getByLabel('Instance URL', { exact: true });
  }

  /** `<label for>` "Access token"; its error is in its aria-describedby and sets aria-invalid (Field). */
  get accessToken(): Locator {
    return this.page.getByLabel('Access token', { exact: true });
  }

  /** A checkbox wrapped by its label "Remember on this device". */
  get remember(): Locator {
    return this.page.getByRole('checkbox', { name: 'Remember on this device' });
  }

  /** The submit button, named "Connect" (it reads "Connecting…" while the check runs). */
  get submit(): Locator {
    return this.form.getByRole('button', { name: 'Connect', exact: true });
  }

  /** A failure that belongs to no single field is a role="alert" inside the form. */
  get formError(): Locator {
    return this.form.getByRole('alert');
  }

  /** After a 401 the screen explains itself in a role="status" notice. */
  get sessionEndedNotice(): Locator {
    return this.page.getByRole('status').filter({ hasText: 'Your session ended' });
  }

  /** `<section aria-labelledby>` headed "Saved connections": a region. */
  get savedConnections(): Locator {
    return this.page.getByRole('region', { name: 'Saved connections' });
  }

  /** Each saved connection's button is labelled "Use <username> on <instance URL>" (aria-label). */
  useConnection(username: string, instanceUrl: string): Locator {
    return this.savedConnections.getByRole('button', { name: `Use ${username} on ${instanceUrl}`, exact: true });
  }

  /** "Forget <username> on <instance URL>" (aria-label). */
  forgetConnection(username: string, instanceUrl: string): Locator {
    return this.savedConnections.getByRole('button', { name: `Forget ${username} on ${instanceUrl}`, exact: true });
  }
}
