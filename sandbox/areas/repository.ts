import { notFound, paramError } from '../http/errors.ts';
import { pageOfArray, pageRequest, setKeysetNext } from '../http/pagination.ts';
import { pathParam, type Router } from '../http/route.ts';
import { REPOSITORY_READ_SCOPES, readableRepositoryProject, repositoryFor } from '../git/access.ts';
import { tagEntity } from '../git/entities.ts';
import { listTags, lsTree, readCommits, resolveCommit, type TagEntry, type TreeEntry } from '../git/repository.ts';
import { nameMatcher } from './branches.ts';

const TYPE_ORDER: Record<TreeEntry['type'], number> = { tree: 0, blob: 1, commit: 2 };

function treeEntity(entry: TreeEntry) {
  const slash = entry.path.lastIndexOf('/');
  return { id: entry.sha, name: entry.path.slice(slash + 1), type: entry.type, path: entry.path, mode: entry.mode };
}

/** Version order of tag names: numeric parts compared as numbers (`v1.10` after `v1.9`). */
function compareVersions(a: string, b: string): number {
  const parts = (name: string) => name.replace(/^v/i, '').split(/[.\-+]/);
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const order = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
    if (order) return order;
  }
  return 0;
}

export function registerRepository(routes: Router): void {
  routes.get('/projects/:id/repository/tree', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const { params } = call;
    const ref = params.string('ref') || project.default_branch;
    const treePath = (params.string('path') ?? '').replace(/^\/+|\/+$/g, '');
    const recursive = params.bool('recursive') ?? false;
    const keyset = params.oneOf('pagination', ['keyset', 'none'] as const) === 'keyset';
    const pageToken = params.string('page_token');
    if (treePath.split('/').includes('..')) throw paramError('path should be a valid file path');
    const repo = repositoryFor(call, project);
    const commit = await resolveCommit(repo, ref);
    if (!commit || !repo) throw notFound('Tree');
    let entries = await lsTree(repo, commit, { path: treePath || undefined, recursive });
    if (treePath && !entries.length) throw notFound('Tree');
    // trees first, then files and submodules, each in git's name order
    entries = entries.map((entry, index) => ({ entry, index }))
      .sort((a, b) => TYPE_ORDER[a.entry.type] - TYPE_ORDER[b.entry.type] || a.index - b.index)
      .map(({ entry }) => entry);
    if (!keyset) return c.json(pageOfArray(c, params, entries).map(treeEntity));
    const request = pageRequest(params);
    const start = pageToken ? entries.findIndex((entry) => entry.sha === pageToken) + 1 : 0;
    if (pageToken && start === 0) return c.json([]);
    const page = entries.slice(start, start + request.perPage);
    setKeysetNext(c, start + request.perPage < entries.length ? { page_token: page[page.length - 1].sha, pagination: 'keyset', per_page: request.perPage } : null);
    return c.json(page.map(treeEntity));
  });

  routes.get('/projects/:id/repository/tags', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const { params } = call;
    const orderBy = params.oneOf('order_by', ['name', 'updated', 'version'] as const) ?? 'updated';
    const sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
    const search = params.string('search');
    const repo = repositoryFor(call, project);
    let tags = await listTags(repo);
    if (search) tags = tags.filter((tag) => nameMatcher(search)(tag.name));
    const compare = (a: TagEntry, b: TagEntry) => orderBy === 'name'
      ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
      : orderBy === 'version' ? compareVersions(a.name, b.name) : a.commitDate - b.commitDate || (a.name < b.name ? -1 : 1);
    tags.sort((a, b) => (sort === 'asc' ? compare(a, b) : compare(b, a)));
    const page = pageOfArray(c, params, tags);
    const shas = [...new Set(page.map((tag) => tag.commit).filter((sha): sha is string => sha !== null))];
    const commits = new Map(repo && shas.length ? (await readCommits(repo, ['--no-walk=unsorted', ...shas])).map((commit) => [commit.id, commit]) : []);
    return c.json(page.map((tag) => tagEntity(call.sandbox, project, tag, tag.commit ? commits.get(tag.commit) ?? null : null)));
  });

  routes.get('/projects/:id/repository/tags/:tag_name', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const name = pathParam(c, 'tag_name');
    const tag = (await listTags(repo)).find((entry) => entry.name === name);
    if (!tag) throw notFound('Tag');
    const [commit] = tag.commit && repo ? await readCommits(repo, ['--no-walk', tag.commit]) : [];
    return c.json(tagEntity(call.sandbox, project, tag, commit ?? null));
  });
}
