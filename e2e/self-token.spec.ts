import { test, expect } from './fixtures.ts';
import { RotateTokenDialog, SecretDialog } from './pages/access-tokens.ts';
import { Shell } from './pages/shell.ts';

test.describe('connected with a group access token', () => {
  test('the token sees itself, rotates itself, and the console carries on with the new secret', async ({ page, api, connectAs, knownSecrets }) => {
    const group = await api.post<{ id: number; full_name: string }>('/groups', { name: `Self ${Date.now()}`, path: `self-${Date.now()}`, visibility: 'private' });
    const created = await api.post<{ id: number; token: string }>(`/groups/${group.id}/access_tokens`, { name: 'release bot', scopes: ['api'], access_level: 40 });
    knownSecrets.add(created.token);
    api.cleanup(() => api.call('DELETE', `/groups/${group.id}/access_tokens/${created.id}`));

    await connectAs(page, created.token);
    // the Areas navigation offers "This token" only to a bot connection
    await new Shell(page).areas.getByRole('link', { name: 'This token', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'This token' })).toBeVisible();
    await expect(page.getByRole('definition').first()).toHaveText('release bot');

    await page.getByRole('button', { name: 'Rotate this token' }).click();
    // the confirmation says the console keeps working with the new secret
    const confirm = new RotateTokenDialog(page.getByRole('alertdialog', { name: 'Rotate release bot?' }));
    await expect(confirm.root).toContainText('carries on with the new one');
    await confirm.confirm.click();
    const shown = new SecretDialog(page.getByRole('dialog', { name: 'This token, rotated' }));
    await expect(shown.token).toHaveValue(/^glpat-/);
    const fresh = await shown.token.inputValue();
    knownSecrets.add(fresh);
    await shown.done.click();

    expect((await api.call('GET', '/personal_access_tokens/self', { token: created.token })).status).toBe(401);
    expect((await api.call('GET', '/personal_access_tokens/self', { token: fresh })).status).toBe(200);
    // still signed in: the next screen loads with the rotated secret
    await new Shell(page).areas.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await expect(page).not.toHaveURL(/\/connect/);
  });

  test('a token of a group with subgroups finds its own group, not a subgroup it reaches', async ({ page, api, connectAs, knownSecrets }) => {
    const stamp = Date.now();
    // the subgroup sorts first by name and by nothing else
    const parent = await api.post<{ id: number; full_name: string }>('/groups', { name: `Zulu parent ${stamp}`, path: `zulu-${stamp}`, visibility: 'private' });
    await api.post('/groups', { name: 'Alpha child', path: `alpha-${stamp}`, parent_id: parent.id, visibility: 'private' });
    const created = await api.post<{ id: number; token: string }>(`/groups/${parent.id}/access_tokens`, { name: 'parent bot', scopes: ['read_api'], access_level: 30 });
    knownSecrets.add(created.token);
    api.cleanup(() => api.call('DELETE', `/groups/${parent.id}/access_tokens/${created.id}`));

    await connectAs(page, created.token);
    await page.goto('/access-tokens/self');
    await expect(page.getByRole('definition').first()).toHaveText('parent bot');
    await expect(page.getByRole('definition').nth(1)).toHaveText(parent.full_name);
    // the moment of creation says which zone its hour is in
    await expect(page.getByRole('definition').last()).toHaveText(/\d{2}:\d{2} UTC([+-]\d+(:\d\d)?)?$/);
  });

  test('a personal access token is told what the view is for', async ({ page, connectAs, consoleServer }) => {
    await connectAs(page, consoleServer.adminToken);
    await page.goto('/access-tokens/self');
    await expect(page.getByRole('status', { name: 'The console is connected with a personal access token.' })).toBeVisible();
  });
});
