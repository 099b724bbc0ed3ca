import { randomBytes } from 'node:crypto';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { apiAnswers } from './api-answers.ts';
import { DeployKeysPage } from './pages/deploy-keys.ts';
import { newSshKey } from './ssh-key.ts';

interface KeyAnswer {
  id: number;
  title: string;
  can_push: boolean;
  fingerprint_sha256: string;
}

async function newProject(api: Api, prefix = 'e2e-keys') {
  return api.post<{ id: number; name_with_namespace: string }>('/projects', { name: `${prefix}-${randomBytes(4).toString('hex')}` });
}

test.describe('deploy keys of a project (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a bad key is refused before sending and the input kept; a good one is added', async ({ page, api }) => {
    const project = await newProject(api);
    const keys = new DeployKeysPage(page);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/deploy_keys')) posts.push(request.url());
    });
    await keys.goto(project.id);
    await expect(keys.heading(`Deploy keys of ${project.name_with_namespace}`)).toBeVisible();
    await expect(page.getByRole('status', { name: 'This project has no deploy keys.' })).toBeVisible();

    await keys.add.click();
    const good = newSshKey();
    // the body of an Ed25519 key under an RSA type: caught by the embedded type
    const mislabelled = good.text.replace(/^ssh-ed25519/, 'ssh-rsa');
    await keys.field('Title').fill('Build server');
    await keys.field('Public key').fill(mislabelled);
    await keys.dialogButton('Add key').click();
    await expect(keys.dialog.getByText('The key starts with “ssh-rsa”, but its body is a “ssh-ed25519” key.', { exact: false })).toBeVisible();
    await expect(keys.field('Public key')).toHaveValue(mislabelled);
    await expect(keys.field('Title')).toHaveValue('Build server');

    await keys.field('Public key').fill('-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----');
    await keys.dialogButton('Add key').click();
    await expect(keys.dialog.getByText(/This is a private key/)).toBeVisible();
    expect(posts).toEqual([]);

    await keys.field('Public key').fill(good.text);
    await keys.canPush.check();
    await keys.dialogButton('Add key').click();
    await expect(keys.dialog).toHaveCount(0);
    await expect(keys.row('Build server')).toContainText(good.sha256);
    await expect(keys.row('Build server')).toContainText('MD5:');
    await expect(keys.row('Build server')).toContainText('Read-write');
    await expect(keys.row('Build server')).toContainText('Never');
    const stored = await api.get<KeyAnswer[]>(`/projects/${project.id}/deploy_keys`);
    expect(stored).toEqual([expect.objectContaining({ title: 'Build server', can_push: true, fingerprint_sha256: good.sha256 })]);
  });

  test('enable a key of another project, edit it, and remove it', async ({ page, api }) => {
    const source = await newProject(api, 'e2e-keys-source');
    const target = await newProject(api, 'e2e-keys-target');
    const title = `Shared ${randomBytes(3).toString('hex')}`;
    const key = await api.post<KeyAnswer>(`/projects/${source.id}/deploy_keys`, { title, key: newSshKey().text });
    const keys = new DeployKeysPage(page);
    await keys.goto(target.id);
    await keys.enableExisting.click();
    await keys.dialog.getByRole('searchbox', { name: 'Filter keys by title or fingerprint' }).fill(title);
    await keys.dialogButton(`Enable ${title}`).click();
    await expect(keys.dialog).toHaveCount(0);
    await expect(keys.row(title)).toContainText('Read-only');

    await keys.editButton(title).click();
    await keys.field('Title').fill(`${title} (CI)`);
    await keys.canPush.check();
    await keys.dialogButton('Save').click();
    await expect(keys.dialog).toHaveCount(0);
    await expect(keys.row(`${title} (CI)`)).toContainText('Read-write');
    const onTarget = await api.get<KeyAnswer>(`/projects/${target.id}/deploy_keys/${key.id}`);
    expect(onTarget).toMatchObject({ title: `${title} (CI)`, can_push: true });
    // write access is per project: the source keeps read-only
    expect((await api.get<KeyAnswer>(`/projects/${source.id}/deploy_keys/${key.id}`)).can_push).toBe(false);

    await keys.removeButton(`${title} (CI)`).click();
    await expect(keys.dialog).toContainText('When no other project uses it, the key is deleted from the instance altogether');
    await keys.dialogButton('Remove key').click();
    await expect(keys.dialog).toHaveCount(0);
    await expect(keys.row(`${title} (CI)`)).toHaveCount(0);
    expect((await api.call('GET', `/projects/${target.id}/deploy_keys/${key.id}`)).status).toBe(404);
    expect((await api.call('GET', `/projects/${source.id}/deploy_keys/${key.id}`)).status).toBe(200);
  });

  test('the instance page lists the projects using each key and adds instance keys', async ({ page, api }) => {
    const project = await newProject(api);
    const title = `Mirror ${randomBytes(3).toString('hex')}`;
    await api.post(`/projects/${project.id}/deploy_keys`, { title, key: newSshKey().text, can_push: true });
    const keys = new DeployKeysPage(page);
    await keys.gotoInstance('?per_page=100');
    await expect(keys.heading('Instance deploy keys')).toBeVisible();
    await expect(keys.row(title).getByRole('list', { name: `Read-write in (${title})` }).getByRole('link', { name: project.name_with_namespace })).toBeVisible();

    const instanceTitle = `Instance ${randomBytes(3).toString('hex')}`;
    const added = newSshKey();
    await keys.addInstanceKey.click();
    await keys.field('Title').fill(instanceTitle);
    await keys.field('Public key').fill(added.text);
    await keys.dialogButton('Add key').click();
    await expect(keys.dialog).toHaveCount(0);
    await keys.page.getByRole('checkbox', { name: 'Instance-wide keys only' }).check();
    await expect(keys.row(instanceTitle)).toContainText(added.sha256);
    await expect(keys.row(title)).toHaveCount(0);
  });
});

test.describe('deploy keys for non-administrators', () => {
  test('a Maintainer enables the key of a project they maintain; a Developer is told why there is nothing', async ({ page, api, connectAs }) => {
    const source = await newProject(api, 'e2e-keys-source');
    const target = await newProject(api, 'e2e-keys-target');
    const maintainer = await api.createUser();
    for (const project of [source, target]) await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    const title = `Maintained ${randomBytes(3).toString('hex')}`;
    await api.post(`/projects/${source.id}/deploy_keys`, { title, key: newSshKey().text });
    await connectAs(page, maintainer.token);
    const keys = new DeployKeysPage(page);
    await keys.goto(target.id);
    await keys.enableExisting.click();
    await keys.dialogButton(`Enable ${title}`).click();
    await expect(keys.row(title)).toContainText('Read-only');

    const developer = await api.createUser();
    await api.post(`/projects/${target.id}/members`, { user_id: developer.id, access_level: 30 });
    await connectAs(page, developer.token);
    const answers = apiAnswers(page);
    await keys.goto(target.id);
    await expect(keys.notice('Only Maintainers and Owners of this project, and administrators, can see and manage its deploy keys.')).toBeVisible();
    await expect(keys.add).toHaveCount(0);
    // the role is read first: the list the platform would refuse (403) is not asked for
    expect(answers.filter((answer) => answer.includes('/deploy_keys'))).toEqual([]);
  });
});

test.describe('a role that could not be read', () => {
  test('is said with a retry, not taken for no role; once read, the refusal follows', async ({ page, api, connectAs }) => {
    const target = await newProject(api, 'e2e-keys-unread-role');
    const developer = await api.createUser();
    await api.post(`/projects/${target.id}/members`, { user_id: developer.id, access_level: 30 });
    const heal = await api.injectFault({ path: `/api/v4/projects/${target.id}/members/all`, methods: ['GET'], error_rate: 1, error_status: 503 });
    await connectAs(page, developer.token);
    const keys = new DeployKeysPage(page);
    await keys.goto(target.id);
    const unread = keys.notice(/Your role here could not be read \(.+\), so the deploy keys are not shown\./);
    // the read is retried (about 3.5 s) before the failure is said
    await expect(unread).toBeVisible({ timeout: 15_000 });
    await expect(keys.notice(/Only Maintainers and Owners/)).toHaveCount(0);
    await heal();
    await unread.getByRole('button', { name: 'Try again' }).click();
    await expect(keys.notice('Only Maintainers and Owners of this project, and administrators, can see and manage its deploy keys.')).toBeVisible();
    await expect(unread).toHaveCount(0);
  });
});
