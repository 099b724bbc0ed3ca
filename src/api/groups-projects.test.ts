import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { groupsQueries, type GroupListParams } from './groups.ts';
import { projectsQueries, type ProjectListParams } from './projects.ts';
import { clientTestSandbox } from './test-sandbox.ts';

const sandbox = clientTestSandbox('demo');
const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const groupParams = (changes: Partial<GroupListParams>): GroupListParams => ({ scope: 'all', search: '', order_by: 'name', sort: 'asc', top_level_only: false, page: 1, per_page: 20, ...changes });
const projectParams = (changes: Partial<ProjectListParams>): ProjectListParams => ({ scope: 'all', search: '', order_by: 'name', sort: 'asc', page: 1, per_page: 20, ...changes });

describe('the groups and projects lists against the demo instance, as its administrator (a member of nothing)', () => {
  it('counts every group and project from one-row pages, as the list of all reads them', async () => {
    const queries = client();
    const groups = await queries.fetchQuery(groupsQueries.count(sandbox.connection()));
    const projects = await queries.fetchQuery(projectsQueries.count(sandbox.connection()));
    expect(groups).toBeGreaterThan(1);
    expect(projects).toBeGreaterThan(1);
    expect((await queries.fetchQuery(groupsQueries.list(sandbox.connection(), groupParams({})))).total).toBe(groups);
    expect((await queries.fetchQuery(projectsQueries.list(sandbox.connection(), projectParams({})))).total).toBe(projects);
  });

  it('narrows an administrator to their own groups and projects with the member scope (all_available=false, membership=true)', async () => {
    const queries = client();
    expect((await queries.fetchQuery(groupsQueries.list(sandbox.connection(), groupParams({ scope: 'member' })))).items).toEqual([]);
    expect((await queries.fetchQuery(projectsQueries.list(sandbox.connection(), projectParams({ scope: 'member' })))).items).toEqual([]);
  });

  it('sends the filters: starred, archived=false, visibility, search and the order', async () => {
    const queries = client();
    const all = await queries.fetchQuery(projectsQueries.list(sandbox.connection(), projectParams({ per_page: 100 })));
    const [first] = all.items;
    await sandbox.post(`/projects/${first.id}/star`, {});
    const starred = await queries.fetchQuery(projectsQueries.list(sandbox.connection(), projectParams({ scope: 'starred' })));
    expect(starred.items.map((project) => project.id)).toEqual([first.id]);
    const active = await queries.fetchQuery(projectsQueries.list(sandbox.connection(), projectParams({ archived: false, per_page: 100 })));
    expect(active.items.every((project) => project.archived === false)).toBe(true);
    const internal = await queries.fetchQuery(groupsQueries.list(sandbox.connection(), groupParams({ visibility: 'internal', sort: 'desc' })));
    expect(internal.items.every((group) => group.visibility === 'internal')).toBe(true);
    const names = internal.items.map((group) => group.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    const searched = await queries.fetchQuery(groupsQueries.list(sandbox.connection(), groupParams({ search: 'acme' })));
    expect(searched.items.length).toBeGreaterThan(0);
    expect(searched.items.every((group) => `${group.name} ${group.path}`.toLowerCase().includes('acme'))).toBe(true);
  });
});
