import { HttpError, notFound, paramError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { pageOfArray, pageRequest, setKeysetNext } from '../http/pagination.ts';
import { pathParam, type Router } from '../http/route.ts';
import { REPOSITORY_READ_SCOPES, commitFailed, readableRepositoryProject, repositoryFor, requirePushCode, writableRepository } from '../git/access.ts';
import { git, identityEnv } from '../git/exec.ts';
import { announceRefChanges } from '../git/push-events.ts';
import { committerOf } from './commits.ts';
import { tagEntity } from '../git/entities.ts';
import { ZERO_SHA, isSafeRevision, isValidBranchName, listTags, lsTree, readCommits, resolveCommit, type TagEntry, type TreeEntry } from '../git/repository.ts';
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

  // Tags::CreateService: a lightweight tag, or an annotated one when a message is given
  routes.post('/projects/:id/repository/tags', { async: true }, async (c, call) => {
    let name = '';
    let ref = '';
    collectParamErrors([() => (name = call.params.requiredString('tag_name')), () => (ref = call.params.requiredString('ref'))]);
    const message = call.params.string('message');
    const project = readableRepositoryProject(c, call);
    requirePushCode(call, project);
    const repo = writableRepository(call, project);
    if (!isValidBranchName(name)) throw commitFailed('Tag name invalid');
    const target = isSafeRevision(ref) ? await resolveCommit(repo, ref) : null;
    if (!target) throw commitFailed(`Target ${ref} is invalid`);
    if ((await listTags(repo)).some((tag) => tag.name === name)) throw new HttpError(409, { message: `Tag ${name} already exists` });
    const args = message ? ['tag', '-a', '-m', message, '--end-of-options', name, target] : ['tag', '--end-of-options', name, target];
    const result = await git(repo, args, { env: identityEnv('COMMITTER', committerOf(call), call.sandbox.now()), okCodes: [1, 128] });
    if (result.code !== 0) throw commitFailed(`Tag ${name} already exists`);
    const tag = (await listTags(repo)).find((entry) => entry.name === name)!;
    const [commit] = await readCommits(repo, ['--no-walk', tag.commit ?? target]);
    announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/tags/${name}`, before: ZERO_SHA, after: tag.target }]);
    return c.json(tagEntity(call.sandbox, project, tag, commit ?? null), 201);
  });

  routes.delete('/projects/:id/repository/tags/:tag_name', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    requirePushCode(call, project);
    const name = pathParam(c, 'tag_name');
    const repo = repositoryFor(call, project);
    const tag = (await listTags(repo)).find((entry) => entry.name === name);
    if (!tag || !repo) throw new HttpError(404, { message: 'No such tag' });
    writableRepository(call, project);
    const result = await git(repo, ['update-ref', '-d', '--end-of-options', `refs/tags/${name}`, tag.target], { okCodes: [1, 128] });
    if (result.code !== 0) throw commitFailed('Failed to remove tag');
    announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/tags/${name}`, before: tag.target, after: ZERO_SHA }]);
    return c.body(null, 204);
  });
}
