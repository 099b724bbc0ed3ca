import { describe, expect, it } from 'vitest';
import { ADMIN_SECTION, contextSections, yourWork } from './nav-model.ts';

const names = (sections: ReturnType<typeof contextSections>) => sections.map((section) => [section.name, section.items.map((item) => item.label)]);

describe('the sidebar model', () => {
  it('places a project’s screens in the platform’s sections, in its order, leaving out sections with no screen', () => {
    expect(names(contextSections({ isAdmin: false, isBot: false, projectId: 7 }))).toEqual([
      ['Manage', ['Members']],
      ['Plan', ['Issues', 'Issue boards']],
      ['Code', ['Merge requests', 'Merge request board', 'Files', 'Commits', 'Branches']],
      ['Build', ['Pipelines', 'Runners']],
      ['Deploy', ['Package registry', 'Container registry']],
      ['Monitor', ['Alerts', 'Alert tester']],
      ['Settings', ['Deploy keys', 'Packages and registries', 'Merge request approvals', 'Alert integrations']],
    ]);
  });

  it('offers a group’s Owner screens to Owners only, and the top-level ones only on a top-level group', () => {
    const group = (owner: boolean, topLevel: boolean) => names(contextSections({ isAdmin: false, isBot: false, group: { id: 3, owner, topLevel } }));
    expect(group(false, true)).toEqual([
      ['Manage', ['Members']],
      ['Plan', ['Issues', 'Issue boards']],
      ['Code', ['Merge requests', 'Merge request board']],
      ['Deploy', ['Package registry', 'Container registry']],
    ]);
    expect(group(true, false)).toEqual([
      ['Manage', ['Members']],
      ['Plan', ['Issues', 'Issue boards']],
      ['Code', ['Merge requests', 'Merge request board']],
      ['Build', ['Runners']],
      ['Deploy', ['Package registry', 'Container registry']],
      ['Settings', ['Access tokens']],
    ]);
    expect(group(true, true)).toEqual([
      ['Manage', ['Members']],
      ['Plan', ['Issues', 'Issue boards']],
      ['Code', ['Merge requests', 'Merge request board']],
      ['Build', ['Runners']],
      ['Deploy', ['Package registry', 'Container registry']],
      ['Settings', ['Access tokens', 'Service accounts', 'Billable members']],
    ]);
  });

  it('has no context sections outside a group or project, and This token only for bots', () => {
    expect(contextSections({ isAdmin: true, isBot: false })).toEqual([]);
    expect(yourWork({ isBot: false }).items.map((item) => item.label)).toEqual(['Home', 'Groups', 'Projects', 'People', 'Issues', 'Merge requests', 'Review queue', 'Token expiry']);
    expect(yourWork({ isBot: true }).items.map((item) => item.label)).toContain('This token');
    expect(ADMIN_SECTION.items.map((item) => item.to)).toEqual(['/admin/runners', '/admin/service-accounts', '/admin/hooks', '/admin/storage-moves', '/admin/deploy-keys']);
  });

  it('keeps Files current on a file, its blame and its editor, and Commits on a commit', () => {
    const code = contextSections({ isAdmin: false, isBot: false, projectId: 7 }).find((section) => section.name === 'Code')!;
    const [, , files, commits] = code.items;
    for (const path of ['/projects/7/blob/README.md', '/projects/7/blame/a/b.rs', '/projects/7/edit/x', '/projects/7/new/src', '/projects/7/changes']) expect(files.alsoCurrent?.test(path), path).toBe(true);
    expect(files.alsoCurrent?.test('/projects/7/commits')).toBe(false);
    expect(commits.alsoCurrent?.test('/projects/7/commit/abc123')).toBe(true);
  });

  it('keeps Pipelines current on a pipeline, the run form and the chart', () => {
    const pipelines = contextSections({ isAdmin: false, isBot: false, projectId: 7 }).find((section) => section.name === 'Build')!.items[0];
    expect(pipelines.to).toBe('/projects/$projectId/pipelines');
    for (const path of ['/projects/7/pipelines/12', '/projects/7/pipelines/new', '/projects/7/pipelines/charts']) expect(pipelines.alsoCurrent?.test(path), path).toBe(true);
  });

  it('keeps the Package registry current on a package, in projects and groups', () => {
    const deploy = (context: Parameters<typeof contextSections>[0]) => contextSections(context).find((section) => section.name === 'Deploy')!.items[0];
    const project = deploy({ isAdmin: false, isBot: false, projectId: 7 });
    expect(project).toMatchObject({ to: '/projects/$projectId/packages', params: { projectId: '7' } });
    expect(project.alsoCurrent?.test('/projects/7/packages/12')).toBe(true);
    expect(project.alsoCurrent?.test('/projects/7/pipelines/12')).toBe(false);
    expect(deploy({ isAdmin: false, isBot: false, group: { id: 3, owner: false, topLevel: true } })).toMatchObject({ to: '/groups/$groupId/packages', params: { groupId: '3' } });
  });

  it('keeps the Container registry current on an image and the cleanup policy', () => {
    const registry = contextSections({ isAdmin: false, isBot: false, projectId: 7 }).find((section) => section.name === 'Deploy')!.items[1];
    expect(registry.to).toBe('/projects/$projectId/registry');
    for (const path of ['/projects/7/registry/12', '/projects/7/registry/cleanup-policy']) expect(registry.alsoCurrent?.test(path), path).toBe(true);
  });

  it('keeps a project’s Merge requests current on one of its merge requests', () => {
    const requests = contextSections({ isAdmin: false, isBot: false, projectId: 7 }).find((section) => section.name === 'Code')!.items[0];
    expect(requests.to).toBe('/projects/$projectId/merge-requests');
    expect(requests.alsoCurrent?.test('/projects/7/merge-requests/44')).toBe(true);
    expect(requests.alsoCurrent?.test('/projects/7/merge-requests')).toBe(false);
  });

  it('has a merge request board beside the lists of projects and groups, and the review queue in Your work', () => {
    const code = (context: Parameters<typeof contextSections>[0]) => contextSections(context).find((section) => section.name === 'Code')!.items;
    const project = code({ isAdmin: false, isBot: false, projectId: 7 })[1];
    expect(project).toMatchObject({ label: 'Merge request board', to: '/projects/$projectId/merge-request-board', params: { projectId: '7' } });
    // the list's own entry stays current on a request, not on the board
    expect(code({ isAdmin: false, isBot: false, projectId: 7 })[0].alsoCurrent?.test('/projects/7/merge-request-board')).toBe(false);
    expect(code({ isAdmin: false, isBot: false, group: { id: 3, owner: false, topLevel: true } })[1]).toMatchObject({ to: '/groups/$groupId/merge-request-board', params: { groupId: '3' } });
    const work = yourWork({ isBot: false }).items;
    expect(work.find((item) => item.label === 'Review queue')?.to).toBe('/merge-requests/board');
    expect(work.find((item) => item.label === 'Merge requests')?.exact).toBe(true);
  });

  it('keeps a project’s Issues current on one of its issues', () => {
    const issues = contextSections({ isAdmin: false, isBot: false, projectId: 7 }).find((section) => section.name === 'Plan')!.items[0];
    expect(issues.to).toBe('/projects/$projectId/issues');
    expect(issues.alsoCurrent?.test('/projects/7/issues/12')).toBe(true);
    expect(issues.alsoCurrent?.test('/projects/7/issues')).toBe(false);
  });
});
