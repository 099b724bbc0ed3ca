import { expect, test } from './fixtures.ts';
import { UserPage } from './pages/user.ts';

test.describe("the instance's rate limit", () => {
  test('the header shows the request budget the instance reports', async ({ page, connectAs, consoleServer }) => {
    await connectAs(page, consoleServer.adminToken);
    // the sandbox allows the platform's 2,000 authenticated requests a minute
    await expect(page.getByRole('banner').getByText(/^[\d,]+ of 2,000 API requests left this minute$/)).toBeVisible();
  });

  test('a throttled read waits for Retry-After, says so, then retries by itself', async ({ page, api, connectAs, consoleServer }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    await connectAs(page, consoleServer.adminToken);
    await api.injectFault({ path: `/api/v4/users/${sofia.id}`, methods: ['GET'], rate_limit_rate: 1, retry_after_seconds: 2, times: 1 });
    const profile = new UserPage(page);
    await profile.goto(sofia.id);
    await expect(page.getByRole('status').filter({ hasText: 'Rate limited by the instance; retrying in 2 s' })).toBeVisible();
    await expect(profile.heading(sofia.name)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Rate limited by the instance' })).toHaveCount(0);
  });

  test('a throttled write is never retried by the console: it says so and waits for the user', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const fan = await api.createUser();
    await connectAs(page, fan.token);
    const profile = new UserPage(page);
    await profile.goto(sofia.id);
    await expect(profile.heading(sofia.name)).toBeVisible();
    await api.injectFault({ path: `/api/v4/users/${sofia.id}/follow`, methods: ['POST'], rate_limit_rate: 1, retry_after_seconds: 1 });
    const follows: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/follow')) follows.push(request.url());
    });
    await profile.follow.click();
    // the error shows once the mutation has settled: a retry would have come before it, with the button still busy
    await expect(page.getByRole('alert').filter({ hasText: 'Rate limited by the instance: try again in 1 s.' })).toBeVisible();
    await expect(profile.follow).toBeEnabled();
    await expect(page.getByRole('status').filter({ hasText: 'retrying' })).toHaveCount(0);
    expect(follows).toHaveLength(1);
  });
});
