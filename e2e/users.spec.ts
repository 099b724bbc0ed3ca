import type { Page } from '@playwright/test';
import { DEMO_TOKENS, expect, test } from './fixtures.ts';
import { UserPage } from './pages/user.ts';

const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

test.describe('following people', () => {
  test('follow and unfollow: the button, the count and the followers list change together', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const fan = await api.createUser();
    // an unfollow of someone not followed answers 304, which is fine after a passing run
    api.cleanup(() => api.post(`/users/${sofia.id}/unfollow`, undefined, { token: fan.token }));
    const profile = new UserPage(page);
    const followers = `Followers of ${sofia.name}`;
    await connectAs(page, fan.token);
    await profile.goto(sofia.id);
    await expect(profile.heading(sofia.name)).toBeVisible();
    await expect(profile.listLink('Followers')).toHaveAttribute('aria-current', 'page');
    const before = await profile.count('Followers');
    expect(before).toBeGreaterThan(20);
    await expect(profile.row(followers, fan.name)).toHaveCount(0);

    await profile.follow.click();
    await expect(profile.unfollow).toBeVisible();
    await expect(profile.follow).toHaveCount(0);
    await expect(profile.listLink('Followers')).toHaveText(`Followers (${before + 1})`);
    // the newest follower comes first
    await expect(profile.rows(followers).first()).toContainText(fan.name);
    expect((await api.get<{ is_followed: boolean }>(`/users/${sofia.id}`, { token: fan.token })).is_followed).toBe(true);

    await page.reload();
    await expect(profile.unfollow).toBeVisible();
    await expect(profile.listLink('Followers')).toHaveText(`Followers (${before + 1})`);

    await profile.unfollow.click();
    await expect(profile.follow).toBeVisible();
    await expect(profile.listLink('Followers')).toHaveText(`Followers (${before})`);
    await expect(profile.row(followers, fan.name)).toHaveCount(0);
  });

  test('a person followed, then another reached from their followers: the second press follows too', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const fan = await api.createUser();
    const other = await api.createUser();
    await api.post(`/users/${sofia.id}/follow`, undefined, { token: other.token });
    api.cleanup(() => api.post(`/users/${sofia.id}/unfollow`, undefined, { token: other.token }));
    api.cleanup(() => api.post(`/users/${sofia.id}/unfollow`, undefined, { token: fan.token }));
    api.cleanup(() => api.post(`/users/${other.id}/unfollow`, undefined, { token: fan.token }));
    const profile = new UserPage(page);
    await connectAs(page, fan.token);
    await profile.goto(sofia.id);
    await profile.follow.click();
    await expect(profile.unfollow).toBeVisible();
    // the same screen, another person: Follow there is a new press, not a repeat of the last one
    await profile.row(`Followers of ${sofia.name}`, other.name).getByRole('link', { name: other.name, exact: true }).click();
    await expect(profile.heading(other.name)).toBeVisible();
    await profile.follow.click();
    await expect(profile.unfollow).toBeVisible();
    expect((await api.get<{ is_followed: boolean }>(`/users/${other.id}`, { token: fan.token })).is_followed).toBe(true);
  });

  test('whom someone follows is on their Following list, addressed by tab= in the URL', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const fan = await api.createUser();
    await api.post(`/users/${sofia.id}/follow`, undefined, { token: fan.token });
    api.cleanup(() => api.post(`/users/${sofia.id}/unfollow`, undefined, { token: fan.token }));
    const profile = new UserPage(page);
    await connectAs(page, fan.token);
    await profile.goto(fan.id);
    await expect(profile.heading(fan.name)).toBeVisible();
    // one's own page offers no follow button
    await expect(profile.follow).toHaveCount(0);
    await expect(profile.unfollow).toHaveCount(0);
    await expect(profile.emptyState).toContainText(`Nobody follows ${fan.name} yet.`);

    await profile.listLink('Following').click();
    await expect.poll(param(page, 'tab')).toBe('following');
    await expect(profile.listLink('Following')).toHaveAttribute('aria-current', 'page');
    await expect(profile.listLink('Following')).toHaveText('Following (1)');
    await expect(profile.rows(`Followed by ${fan.name}`)).toHaveCount(1);
    await expect(profile.row(`Followed by ${fan.name}`, sofia.name)).toBeVisible();

    await page.reload();
    await expect(profile.listLink('Following')).toHaveAttribute('aria-current', 'page');
    await expect(profile.row(`Followed by ${fan.name}`, sofia.name)).toBeVisible();

    // a name in the list leads to that person
    await profile.row(`Followed by ${fan.name}`, sofia.name).getByRole('link', { name: sofia.name, exact: true }).click();
    await expect(profile.heading(sofia.name)).toBeVisible();
    await expect(profile.unfollow).toBeVisible();
  });

  test('a long followers list pages forward and back through the URL', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const followers = `Followers of ${sofia.name}`;
    const [firstOfPage2] = await api.get<Array<{ name: string }>>(`/users/${sofia.id}/followers?page=2&per_page=20`);
    const profile = new UserPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await profile.goto(sofia.id);
    await expect(profile.rows(followers)).toHaveCount(20);

    await profile.pageLink(followers, 'Next').click();
    await expect.poll(param(page, 'page')).toBe('2');
    await expect(profile.pageLink(followers, 'Page 2')).toHaveAttribute('aria-current', 'page');
    await expect(profile.rows(followers).first()).toContainText(firstOfPage2.name);

    await profile.pageLink(followers, 'Previous').click();
    await expect.poll(param(page, 'page')).toBeNull();
    await expect(profile.pageLink(followers, 'Page 1')).toHaveAttribute('aria-current', 'page');
    await expect(profile.row(followers, firstOfPage2.name)).toHaveCount(0);
  });

  test('a read-only token cannot follow: the button is disabled', async ({ page, api, connectAs }) => {
    const sofia = await api.userByUsername('sofia.lindqvist');
    const profile = new UserPage(page);
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    await profile.goto(sofia.id);
    await expect(profile.heading(sofia.name)).toBeVisible();
    await expect(profile.follow.or(profile.unfollow)).toBeDisabled();
  });
});

test.describe('the people directory', () => {
  test('an administrator sees each person’s e-mail, last activity and who administers the instance; a Developer sees people only', async ({ page, api, connectAs, consoleServer }) => {
    const [root] = await api.get<Array<{ id: number; email: string }>>('/users?username=root');
    await connectAs(page, consoleServer.adminToken);
    await page.goto('/users?search=root');
    const people = page.getByRole('table', { name: 'People', exact: true });
    await expect(people.getByRole('columnheader')).toHaveText(['Person', 'Email', 'Last activity']);
    const rootRow = people.getByRole('row').filter({ hasText: '@root' });
    await expect(rootRow.getByText('Admin', { exact: true })).toBeVisible();
    await expect(rootRow).toContainText(root.email);
    // everyone listed is active: the directory has no state column saying so twenty times
    await expect(people.getByRole('columnheader', { name: 'State' })).toHaveCount(0);

    await connectAs(page, DEMO_TOKENS.developer.secret);
    await page.goto('/users?search=root');
    await expect(people.getByRole('row').filter({ hasText: '@root' })).toBeVisible();
    await expect(people.getByRole('columnheader')).toHaveText(['Person']);
    await expect(people.getByRole('row').filter({ hasText: '@root' }).getByText('Admin', { exact: true })).toHaveCount(0);
  });
});
