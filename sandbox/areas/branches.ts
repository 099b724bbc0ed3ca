import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { badRequest, conflict, notFound, paramError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors, type ParamValue } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, type ProjectRow } from '../model/access.ts';
import {
  PROTECTION_LEVELS, ProjectProtections, insertProtection, protectedBranchEntity, protectionsOf, type ProtectedBranchRow, type ProtectionInput,
} from '../model/protected-branches.ts';
import { timestamp } from '../model/time.ts';
import {
  REPOSITORY_READ_SCOPES, branchNotFound, commitFailed, projectRole, readableRepositoryProject, repositoryFor, requireMaintainer,
  requirePushCode, requireWritableRepository, writableRepository,
} from '../git/access.ts';
import { announceRefChanges, type RefChange } from '../git/push-events.ts';
import { branchEntity, recordPush } from '../git/entities.ts';
import { git } from '../git/exec.ts';
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { ZERO_SHA, branchHead, isSafeRevision, isValidBranchName, listBranches, readCommits, resolveCommit, type RawCommit, type RefEntry } from '../git/repository.ts';
import { CommitFailure, commitTree, moveBranch, treeWithActions } from '../git/write.ts';
import { committerOf } from './commits.ts';

/** `search`: case-insensitive substring; `^term` a prefix, `term$` a suffix (BranchesFinder). */
export function nameMatcher(search: string): (name: string) => boolean {
  const term = search.toLowerCase();
  const prefix = term.startsWith('^');
  const suffix = term.endsWith('$') && term.length > (prefix ? 1 : 0);
  const core = term.slice(prefix ? 1 : 0, suffix ? -1 : undefined);
  return (name: string) => {
    const lower = name.toLowerCase();
    if (prefix && suffix) return lower === core;
    if (prefix) return lower.startsWith(core);
    if (suffix) return lower.endsWith(core);
    return lower.includes(core);
  };
}

/** Branches merged into the default branch: its ancestors, not the ones at its very tip. */
async function mergedNames(repo: string, project: ProjectRow, names?: readonly string[]): Promise<Set<string>> {
  const root = await branchHead(repo, project.default_branch);
  if (!root) return new Set();
  const text = (await git(repo, ['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', `--merged=${root}`, 'refs/heads/'])).stdout.toString('utf8');
  const wanted = names ? new Set(names) : null;
  const merged = new Set<string>();
  for (const line of text.split('\n').filter(Boolean)) {
    const name = line.slice(41);
    if (line.slice(0, 40) !== root && (!wanted || wanted.has(name))) merged.add(name);
  }
  return merged;
}

async function commitsOf(repo: string, shas: readonly string[]): Promise<Map<string, RawCommit>> {
  const unique = [...new Set(shas)];
  if (!unique.length) return new Map();
  return new Map((await readCommits(repo, ['--no-walk=unsorted', ...unique])).map((commit) => [commit.id, commit]));
}

async function branchEntities(call: Call, project: ProjectRow, repo: string, branches: readonly RefEntry[]) {
  const commits = await commitsOf(repo, branches.map((branch) => branch.sha));
  const merged = await mergedNames(repo, project, branches.map((branch) => branch.name));
  const protections = new ProjectProtections(call.sandbox.db, project.id);
  return branches.map((branch) => branchEntity(call.sandbox, project, call.actor, { name: branch.name, commit: commits.get(branch.sha)! }, { merged: merged.has(branch.name), protections, now: call.now }));
}

async function findBranch(repo: string | null, name: string): Promise<RefEntry> {
  const sha = await branchHead(repo, name);
  if (!sha) throw branchNotFound();
  return { name, sha };
}

const branchParam = (c: Context<AppEnv>) => pathParam(c, 'branch');

/**
 * `allowed_to_push` / `allowed_to_merge` / `allowed_to_unprotect` plus the single
 * `*_access_level`; nothing given means Maintainers, the platform's default.
 */
function accessLevelsParam(call: Call, kind: 'push' | 'merge' | 'unprotect'): ProtectionInput['push'] {
  const { params } = call;
  const levels: ProtectionInput['push'] = [];
  const single = params.int(`${kind}_access_level`);
  if (single !== undefined) {
    if (!(PROTECTION_LEVELS as readonly number[]).includes(single) || (kind === 'unprotect' && single === 0)) throw paramError(`${kind}_access_level does not have a valid value`);
    levels.push({ access_level: single });
  }
  const raw = params.raw[`allowed_to_${kind}`];
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw)) throw paramError(`allowed_to_${kind} is invalid`);
    for (const item of raw as ParamValue[]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw paramError(`allowed_to_${kind} is invalid`);
      const entry = item as Record<string, ParamValue>;
      const number = (key: string) => (entry[key] === undefined || entry[key] === null || entry[key] === '' ? undefined : Number(entry[key]));
      const level = { access_level: number('access_level'), user_id: number('user_id'), group_id: number('group_id'), ...(kind === 'push' ? { deploy_key_id: number('deploy_key_id') } : {}) };
      const given = Object.values(level).filter((value) => value !== undefined);
      if (given.length !== 1 || given.some((value) => !Number.isSafeInteger(value))) throw paramError(`allowed_to_${kind} is invalid`);
      if (level.access_level !== undefined && (!(PROTECTION_LEVELS as readonly number[]).includes(level.access_level) || (kind === 'unprotect' && level.access_level === 0))) {
        throw paramError(`allowed_to_${kind}[access_level] does not have a valid value`);
      }
      levels.push(level);
    }
  }
  return levels.length ? levels : [{ access_level: AccessLevel.MAINTAINER }];
}

function findProtection(call: Call, project: ProjectRow, name: string): ProtectedBranchRow {
  const row = call.sandbox.db.prepare('SELECT * FROM protected_branches WHERE project_id = ? AND name = ?').get(project.id, name) as ProtectedBranchRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** Branches::CreateService: an empty repository first gets its default branch (an initial commit). */
async function createDefaultBranchIfEmpty(call: Call, project: ProjectRow, repo: string): Promise<boolean> {
  if ((await listBranches(repo)).length) return false;
  const tree = await treeWithActions(repo, null, [{ action: 'create', filePath: '.gitkeep', content: Buffer.alloc(0) }]);
  const sha = await commitTree(repo, tree, {
    branch: project.default_branch, parent: null, expectedHead: null, message: 'Initial commit',
    author: committerOf(call), committer: committerOf(call), when: call.sandbox.now(),
  });
  recordPush(call.sandbox, project, project.default_branch, { firstBranch: true });
  announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/heads/${project.default_branch}`, before: ZERO_SHA, after: sha }]);
  return true;
}

export function registerBranches(routes: Router): void {
  routes.get('/projects/:id/repository/branches', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const { params } = call;
    const search = params.string('search');
    const regex = params.string('regex');
    if (search !== undefined && regex !== undefined) throw paramError('search, regex are mutually exclusive');
    let matcher: ((name: string) => boolean) | null = search ? nameMatcher(search) : null;
    if (regex) {
      let compiled: RE2JS;
      try {
        compiled = RE2JS.compile(regex);
      } catch (error) {
        if (error instanceof RE2JSSyntaxException) throw badRequest(`regex is invalid: ${error.message}`);
        throw error;
      }
      // unanchored, as the platform's Gitlab::UntrustedRegexp#match?
      matcher = (name) => compiled.matcher(name).find();
    }
    const repo = repositoryFor(call, project);
    let branches = await listBranches(repo);
    if (matcher) branches = branches.filter((branch) => matcher!(branch.name));
    const sort = params.oneOf('sort', ['name_asc', 'updated_asc', 'updated_desc'] as const) ?? 'name_asc';
    if (sort !== 'name_asc' && repo && branches.length) {
      const commits = await commitsOf(repo, branches.map((branch) => branch.sha));
      const time = (branch: RefEntry) => Date.parse(commits.get(branch.sha)!.committedDate);
      branches = [...branches].sort((a, b) => (sort === 'updated_asc' ? time(a) - time(b) : time(b) - time(a)) || (a.name < b.name ? -1 : 1));
    }
    const page = pageOfArray(c, params, branches);
    return c.json(repo ? await branchEntities(call, project, repo, page) : []);
  });

  routes.get('/projects/:id/repository/branches/:branch', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const branch = await findBranch(repo, branchParam(c));
    return c.json((await branchEntities(call, project, repo!, [branch]))[0]);
  });

  routes.post('/projects/:id/repository/branches', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    let name = '';
    let ref = '';
    collectParamErrors([() => (name = call.params.requiredString('branch')), () => (ref = call.params.requiredString('ref'))]);
    requirePushCode(call, project);
    const repo = writableRepository(call, project);
    const createdDefault = await createDefaultBranchIfEmpty(call, project, repo);
    if (!isValidBranchName(name) || /^[0-9a-f]{40}$/.test(name)) throw commitFailed('Branch name is invalid');
    if (await branchHead(repo, name)) throw commitFailed('Branch already exists');
    const target = isSafeRevision(ref) ? await resolveCommit(repo, ref) : null;
    if (!target) throw commitFailed(`Invalid reference name: ${ref}`);
    try {
      await moveBranch(repo, name, target, null);
    } catch (error) {
      if (error instanceof CommitFailure) throw commitFailed(error.message);
      throw error;
    }
    recordPush(call.sandbox, project, name, { firstBranch: createdDefault && name === project.default_branch });
    announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/heads/${name}`, before: ZERO_SHA, after: target }]);
    return c.json((await branchEntities(call, project, repo, [{ name, sha: target }]))[0], 201);
  });

  routes.delete('/projects/:id/repository/branches/:branch', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    requirePushCode(call, project);
    const repo = repositoryFor(call, project);
    const branch = await findBranch(repo, branchParam(c));
    requireWritableRepository(call, project);
    if (branch.name === project.default_branch) throw commitFailed('The default branch of a project cannot be deleted.');
    // protected branches go only through the API or UI, and only for Maintainers
    if (new ProjectProtections(call.sandbox.db, project.id).isProtected(branch.name) && projectRole(call, project) < AccessLevel.MAINTAINER) {
      throw commitFailed('You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');
    }
    const result = await git(repo!, ['update-ref', '-d', '--end-of-options', `refs/heads/${branch.name}`, branch.sha], { okCodes: [1, 128] });
    if (result.code !== 0) throw commitFailed('Failed to remove branch');
    recordPush(call.sandbox, project, branch.name, { firstBranch: false });
    announceRefChanges(call.sandbox, project, call.actor.user, repo!, [{ ref: `refs/heads/${branch.name}`, before: branch.sha, after: ZERO_SHA }]);
    return c.body(null, 204);
  });

  routes.delete('/projects/:id/repository/merged_branches', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    requirePushCode(call, project);
    const repo = repositoryFor(call, project);
    requireWritableRepository(call, project);
    if (repo) {
      const removed: RefChange[] = [];
      const protections = new ProjectProtections(call.sandbox.db, project.id);
      const branches = new Map((await listBranches(repo)).map((branch) => [branch.name, branch.sha]));
      for (const name of await mergedNames(repo, project)) {
        if (name === project.default_branch || protections.isProtected(name)) continue;
        const result = await git(repo, ['update-ref', '-d', '--end-of-options', `refs/heads/${name}`, branches.get(name)!], { okCodes: [1, 128] });
        if (result.code === 0) removed.push({ ref: `refs/heads/${name}`, before: branches.get(name)!, after: ZERO_SHA });
      }
      announceRefChanges(call.sandbox, project, call.actor.user, repo, removed);
    }
    return c.json({ message: '202 Accepted' }, 202);
  });

  // the deprecated protect/unprotect of the branches API, kept by the platform on top of protected branches
  routes.put('/projects/:id/repository/branches/:branch/protect', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    requireMaintainer(call, project);
    const developersCanPush = call.params.bool('developers_can_push');
    const developersCanMerge = call.params.bool('developers_can_merge');
    const repo = repositoryFor(call, project);
    const branch = await findBranch(repo, branchParam(c));
    const { db } = call.sandbox;
    const level = (developers: boolean | undefined) => [{ access_level: developers ? AccessLevel.DEVELOPER : AccessLevel.MAINTAINER }];
    db.transaction(() => {
      const existing = db.prepare('SELECT * FROM protected_branches WHERE project_id = ? AND name = ?').get(project.id, branch.name) as ProtectedBranchRow | undefined;
      if (!existing) {
        insertProtection(db, project.id, {
          name: branch.name, push: level(developersCanPush), merge: level(developersCanMerge), unprotect: level(false),
          allowForcePush: false, codeOwnerApprovalRequired: false, createdAt: timestamp(call.now),
        });
        return;
      }
      for (const [kind, developers] of [['push', developersCanPush], ['merge', developersCanMerge]] as const) {
        if (developers === undefined) continue;
        db.prepare('DELETE FROM protected_branch_access_levels WHERE protected_branch_id = ? AND kind = ?').run(existing.id, kind);
        db.prepare('INSERT INTO protected_branch_access_levels (protected_branch_id, kind, access_level) VALUES (?, ?, ?)').run(existing.id, kind, level(developers)[0].access_level);
      }
    })();
    return c.json((await branchEntities(call, project, repo!, [branch]))[0]);
  });

  routes.put('/projects/:id/repository/branches/:branch/unprotect', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    requireMaintainer(call, project);
    const repo = repositoryFor(call, project);
    const branch = await findBranch(repo, branchParam(c));
    call.sandbox.db.transaction(() => {
      call.sandbox.db.prepare('DELETE FROM protected_branches WHERE project_id = ? AND name = ?').run(project.id, branch.name);
    })();
    return c.json((await branchEntities(call, project, repo!, [branch]))[0]);
  });

  routes.get('/projects/:id/protected_branches', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, (c, call) => {
    const project = readableRepositoryProject(c, call);
    const search = call.params.string('search');
    const rows = protectionsOf(call.sandbox.db, project.id).filter((row) => !search || row.name.toLowerCase().includes(search.toLowerCase()));
    return c.json(pageOfArray(c, call.params, rows).map((row) => protectedBranchEntity(call.sandbox.db, row)));
  });

  routes.get('/projects/:id/protected_branches/:name', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, (c, call) => {
    const project = readableRepositoryProject(c, call);
    return c.json(protectedBranchEntity(call.sandbox.db, findProtection(call, project, pathParam(c, 'name'))));
  });

  routes.post('/projects/:id/protected_branches', {}, (c, call) => {
    const project = readableRepositoryProject(c, call);
    requireMaintainer(call, project);
    const { params } = call;
    let name = '';
    const input = {} as ProtectionInput;
    collectParamErrors([
      () => (name = params.requiredString('name')),
      () => (input.push = accessLevelsParam(call, 'push')),
      () => (input.merge = accessLevelsParam(call, 'merge')),
      () => (input.unprotect = accessLevelsParam(call, 'unprotect')),
      () => (input.allowForcePush = params.bool('allow_force_push') ?? false),
      () => (input.codeOwnerApprovalRequired = params.bool('code_owner_approval_required') ?? false),
    ]);
    if (call.sandbox.db.prepare('SELECT 1 FROM protected_branches WHERE project_id = ? AND name = ?').get(project.id, name)) {
      throw conflict(`Protected branch '${name}' already exists`);
    }
    const row = insertProtection(call.sandbox.db, project.id, { ...input, name, createdAt: timestamp(call.now) });
    return c.json(protectedBranchEntity(call.sandbox.db, row), 201);
  });

  routes.delete('/projects/:id/protected_branches/:name', {}, (c, call) => {
    const project = readableRepositoryProject(c, call);
    requireMaintainer(call, project);
    const row = findProtection(call, project, pathParam(c, 'name'));
    call.sandbox.db.prepare('DELETE FROM protected_branches WHERE id = ?').run(row.id);
    return c.body(null, 204);
  });
}
