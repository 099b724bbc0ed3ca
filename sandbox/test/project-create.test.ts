import { afterAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

describe('POST /projects: initialize_with_readme and default_branch', () => {
  it('starts the repository with README.md on the default branch asked for', async () => {
    const created = await h.post<{ id: number; default_branch: string; empty_repo?: boolean }>('/projects', { name: 'Readme First', initialize_with_readme: true, default_branch: 'trunk' });
    expect(created.status).toBe(201);
    expect(created.body.default_branch).toBe('trunk');
    const id = created.body.id;
    const readme = await h.get<{ content: string; ref: string }>(`/projects/${id}/repository/files/README.md?ref=trunk`);
    expect(readme.status).toBe(200);
    expect(Buffer.from(readme.body.content, 'base64').toString()).toBe('# Readme First\n');
    const branches = await h.get<Array<{ name: string; default: boolean; protected: boolean; commit: { title: string } }>>(`/projects/${id}/repository/branches`);
    expect(branches.body.map((branch) => [branch.name, branch.default, branch.commit.title])).toEqual([['trunk', true, 'Initial commit']]);
    expect((await h.get<{ empty_repo: boolean }>(`/projects/${id}`)).body.empty_repo).toBe(false);
  });

  it('leaves the repository empty without it, on main unless told otherwise', async () => {
    const created = await h.post<{ id: number; default_branch: string }>('/projects', { name: 'Empty Start', initialize_with_readme: false });
    expect(created.status).toBe(201);
    expect(created.body.default_branch).toBe('main');
    expect((await h.get<unknown[]>(`/projects/${created.body.id}/repository/branches`)).body).toEqual([]);
  });

  it('refuses a default branch git would refuse, and a non-boolean flag, creating nothing', async () => {
    const badBranch = await h.post('/projects', { name: 'Bad Branch', default_branch: 'two..dots' });
    expect(badBranch.status).toBe(400);
    expect(badBranch.body).toEqual({ message: { default_branch: ['is invalid'] } });
    const badFlag = await h.post('/projects', { name: 'Bad Flag', initialize_with_readme: 'sometimes' });
    expect(badFlag.status).toBe(400);
    expect((await h.get<unknown[]>('/projects?search=Bad')).body).toEqual([]);
  });
});
