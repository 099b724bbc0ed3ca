import { test, expect, DEMO_PATHS, applyAdminSession, type Api } from './fixtures.ts';
import { StorageMovesPage } from './pages/storage-moves.ts';

interface MoveAnswer {
  id: number;
  state: string;
}

const IN_PROGRESS = ['initial', 'scheduled', 'started', 'replicated'];

/** Waits for the project's newest move to end, then moves it back to `storage` if it is elsewhere. */
async function restoreStorage(api: Api, projectId: number, storage: string): Promise<void> {
  const latestState = async () => (await api.get<MoveAnswer[]>(`/projects/${projectId}/repository_storage_moves`))[0]?.state ?? 'finished';
  await expect.poll(latestState, { timeout: 30_000 }).not.toMatch(new RegExp(`^(${IN_PROGRESS.join('|')})$`));
  const project = await api.get<{ repository_storage: string }>(`/projects/${projectId}`);
  if (project.repository_storage === storage) return;
  await api.post(`/projects/${projectId}/repository_storage_moves`, { destination_storage_name: storage });
  await expect.poll(latestState, { timeout: 30_000 }).toBe('finished');
}

test.describe('repository storage moves', () => {
  test('an administrator moves a project to another storage and watches the move finish', async ({ page, context, api, adminSession }) => {
    const path = DEMO_PATHS.sharedProject;
    const projectId = await api.projectId(path);
    const before = await api.get<{ repository_storage: string }>(`/projects/${projectId}`);
    const original = before.repository_storage;
    const destination = original === 'storage-3' ? 'storage-2' : 'storage-3';
    api.cleanup(() => restoreStorage(api, projectId, original));

    const moves = new StorageMovesPage(page);
    await applyAdminSession(context, adminSession);
    await moves.goto();
    await expect(moves.heading).toBeVisible();
    await moves.projectSearch.fill('terraform-modules');
    await moves.projectPick.selectOption({ label: path });
    // the pick's hint says where the repository is now
    await expect(moves.scheduleForm.getByText(`Currently on ${original}.`)).toBeVisible();
    await moves.destination.selectOption(destination);
    await moves.schedule.click();

    const row = moves.latestRow(path);
    await expect(row).toContainText(`${original} → ${destination}`);
    // the list follows the move on its own: no reload
    await expect(moves.stateOf(row)).toHaveText('finished', { timeout: 30_000 });
    expect((await api.get<{ repository_storage: string }>(`/projects/${projectId}`)).repository_storage).toBe(destination);
  });

  test('a failed move is rescheduled from its row and finishes', async ({ page, context, api, adminSession }) => {
    const path = DEMO_PATHS.inheritedProject;
    const projectId = await api.projectId(path);
    const original = (await api.get<{ repository_storage: string }>(`/projects/${projectId}`)).repository_storage;
    const elsewhere = original === 'storage-2' ? 'storage-3' : 'storage-2';
    api.cleanup(() => restoreStorage(api, projectId, original));
    const latestState = async () => (await api.get<MoveAnswer[]>(`/projects/${projectId}/repository_storage_moves`))[0]?.state;
    // a move onto the storage the repository is already on fails; then the project moves away, so the retry can succeed
    await api.post(`/projects/${projectId}/repository_storage_moves`, { destination_storage_name: original });
    await expect.poll(latestState, { timeout: 30_000 }).toBe('failed');
    await api.post(`/projects/${projectId}/repository_storage_moves`, { destination_storage_name: elsewhere });
    await expect.poll(latestState, { timeout: 30_000 }).toBe('finished');

    const moves = new StorageMovesPage(page);
    await applyAdminSession(context, adminSession);
    await moves.goto();
    const reschedule = moves.table.getByRole('button', { name: `Reschedule the move of ${path} to ${original}`, exact: true });
    await expect(reschedule).toHaveCount(1);
    await reschedule.click();
    const row = moves.latestRow(path);
    await expect(row).toContainText(`${elsewhere} → ${original}`);
    await expect(moves.stateOf(row)).toHaveText('finished', { timeout: 30_000 });
    expect((await api.get<{ repository_storage: string }>(`/projects/${projectId}`)).repository_storage).toBe(original);
  });

  test('moving every project of a storage asks first and refuses the same storage', async ({ page, context, adminSession }) => {
    const moves = new StorageMovesPage(page);
    await applyAdminSession(context, adminSession);
    await moves.goto();
    await expect(moves.heading).toBeVisible();
    await moves.bulkForm.getByRole('combobox', { name: 'Source storage' }).selectOption('storage-2');
    await moves.bulkForm.getByRole('combobox', { name: 'Destination storage' }).selectOption('storage-2');
    await moves.bulkForm.getByRole('button', { name: 'Move all projects' }).click();
    await expect(moves.bulkForm.getByText('Choose a destination other than the source')).toBeVisible();
    await moves.bulkForm.getByRole('combobox', { name: 'Destination storage' }).selectOption('storage-3');
    await moves.bulkForm.getByRole('button', { name: 'Move all projects' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Every project on storage-2 moves to storage-3; repositories are read-only while they move.');
    // cancelled: nothing is scheduled on the shared demo instance
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('a non-administrator is told storage moves are for administrators', async ({ page, api, connectAs }) => {
    const user = await api.createUser();
    const moves = new StorageMovesPage(page);
    await connectAs(page, user.token);
    await moves.goto();
    await expect(moves.heading).toBeVisible();
    await expect(moves.notice('administrators only')).toBeVisible();
    await expect(moves.table).toHaveCount(0);
    await expect(moves.scheduleForm).toHaveCount(0);
  });
});
