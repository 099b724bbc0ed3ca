import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { HttpError, badRequest, forbidden, paramError } from '../http/errors.ts';
import { pageOfArray, pageRequest, setPageHeaders } from '../http/pagination.ts';
import type { ParamValue } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, findReadableProject, type ProjectRow } from '../model/access.ts';
import {
  REPOSITORY_READ_SCOPES, branchNotFound, commitFailed, commitNotFound, readableRepositoryProject, repositoryFor,
  requirePushToBranch, requireWritableRepository, writableRepository, projectRole,
} from '../git/access.ts';
import { commitDetailEntity, commitEntity, commitTitle, recordPush } from '../git/entities.ts';
import { announceRefChanges } from '../git/push-events.ts';
import { GitError, git, type Identity } from '../git/exec.ts';
import {
  ZERO_SHA, branchHead, commitStats, isSafeRevision, isValidBranchName, listBranches, readCommit, readCommits, resolveCommit,
} from '../git/repository.ts';
import { commitDiffs } from '../git/diff.ts';
import { CommitFailure, commitTree, threeWayTree, treeWithActions, type ActionKind, type CommitAction } from '../git/write.ts';

const ACTIONS: readonly ActionKind[] = ['create', 'update', 'move', 'delete', 'chmod'];

/** The caller as a commit's committer, and as its author unless author_name/author_email say otherwise. */
export function committerOf(call: Call): Identity {
  const user = call.actor.user!;
  return { name: user.name, email: user.email };
}

// git drops angle brackets and line breaks from identities and refuses one left empty
const identityText = (value: string | undefined) => (value ?? '').replace(/[<>\r\n\0]/g, '').trim();

export function authorOf(call: Call, params: { author_name?: string; author_email?: string }): Identity {
  const committer = committerOf(call);
  return { name: identityText(params.author_name) || committer.name, email: identityText(params.author_email) || committer.email };
}

const isHash = (value: ParamValue | undefined): value is Record<string, ParamValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const present = (value: ParamValue | undefined) => value !== undefined && value !== null && String(value).trim() !== '';

/** The platform's checks on the create-commit body, in its order and with its messages. */
function validateActions(call: Call): CommitAction[] {
  const raw = call.params.raw;
  if (!present(raw.branch as ParamValue)) throw badRequest('branch is required');
  if (!present(raw.commit_message as ParamValue)) throw badRequest('commit_message is required');
  const actions = raw.actions;
  if (actions === undefined || actions === null || actions === '' || (Array.isArray(actions) && actions.length === 0)) throw badRequest('actions is required');
  if (!Array.isArray(actions)) throw badRequest('actions must be an array');
  if (raw.start_sha !== undefined && raw.start_branch !== undefined) throw badRequest('start_branch, start_sha are mutually exclusive');
  return actions.map((item, index) => {
    const action = isHash(item) ? item : {};
    if (!present(action.action)) throw badRequest(`actions[${index}][action] is required`);
    if (!present(action.file_path)) throw badRequest(`actions[${index}][file_path] is required`);
    const kind = String(action.action);
    if (!(ACTIONS as readonly string[]).includes(kind)) throw badRequest(`actions[${index}][action] must be one of: create, update, move, delete, chmod`);
    const encoding = action.encoding === undefined ? 'text' : String(action.encoding);
    if (encoding !== 'text' && encoding !== 'base64') throw badRequest(`actions[${index}][encoding] must be text or base64`);
    if (kind === 'update' && action.content === undefined) throw badRequest(`actions[${index}][content] is required for update action`);
    if (kind === 'move' && !present(action.previous_path)) throw badRequest(`actions[${index}][previous_path] is required for move action`);
    let executeFilemode: boolean | undefined;
    if (kind === 'chmod') {
      if (action.execute_filemode === undefined) throw badRequest(`actions[${index}][execute_filemode] is required for chmod action`);
      if (![true, false, 'true', 'false'].includes(action.execute_filemode as never)) throw badRequest(`actions[${index}][execute_filemode] must be a boolean`);
      executeFilemode = action.execute_filemode === true || action.execute_filemode === 'true';
    }
    const content = action.content === undefined || action.content === null || kind === 'delete' || kind === 'chmod'
      ? undefined
      : decodeContent(String(action.content), encoding);
    return {
      action: kind as ActionKind,
      filePath: String(action.file_path),
      previousPath: action.previous_path === undefined ? undefined : String(action.previous_path),
      content,
      lastCommitId: present(action.last_commit_id) ? String(action.last_commit_id) : undefined,
      executeFilemode,
    };
  });
}

/** The platform's `title`: the first line, cut to 80 characters and an ellipsis past 100. */
function shortTitle(message: string): string {
  const title = commitTitle(message).trim();
  return title.length > 100 ? `${title.slice(0, 80)}…` : title;
}

export function decodeContent(content: string, encoding: string): Buffer {
  return encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
}

/** Where a new commit starts and what the branch must still point at (Commits::CreateService). */
export async function planCommit(
  repo: string,
  input: { branch: string; startBranch?: string; startSha?: string; force?: boolean },
): Promise<{ parent: string | null; expectedHead: string | null; firstBranch: boolean }> {
  const branches = await listBranches(repo);
  const empty = branches.length === 0;
  const head = await branchHead(repo, input.branch);
  const startBranch = input.startSha ? undefined : input.startBranch ?? input.branch;
  let start: string | null = null;
  if (input.startSha) {
    start = /^[0-9a-fA-F]{4,40}$/.test(input.startSha) ? await resolveCommit(repo, input.startSha) : null;
    if (!start) throw new CommitFailure(`Cannot find start_sha '${input.startSha}'`);
  } else if (!empty) {
    start = await branchHead(repo, startBranch!);
    if (!start) throw new CommitFailure('You can only create or edit files when you are on a branch');
  }
  const differentBranch = input.startSha !== undefined || startBranch !== input.branch;
  if (differentBranch && head && !input.force) {
    throw new CommitFailure(`A branch called '${input.branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (!isValidBranchName(input.branch)) {
    throw new CommitFailure(`Something went wrong when we tried to create '${input.branch}' for you: Branch name is invalid`);
  }
  return { parent: differentBranch || input.force ? start : head, expectedHead: head, firstBranch: empty };
}

function shaParam(c: Context<AppEnv>): string {
  return pathParam(c, 'sha');
}

async function findCommit(repo: string | null, rev: string): Promise<string> {
  const sha = await resolveCommit(repo, rev);
  if (!sha) throw commitNotFound();
  return sha;
}

/** `git log` arguments for the list's filters (spec 3, 4.1). */
function logArguments(call: Call, project: ProjectRow, limit: number, offset: number): string[] | null {
  const { params } = call;
  const all = params.bool('all') ?? false;
  const refName = params.string('ref_name');
  const since = params.dateTime('since');
  const until = params.dateTime('until');
  const path = params.string('path');
  const author = params.string('author');
  const firstParent = params.bool('first_parent') ?? false;
  const order = params.oneOf('order', ['default', 'topo'] as const) ?? 'default';
  params.bool('with_stats');
  params.bool('trailers');
  const args = [`--skip=${offset}`, `--max-count=${limit}`];
  // since and until are inclusive: git keeps commits whose committer date is within both bounds
  if (since) args.push(`--max-age=${Math.floor(Date.parse(since) / 1000)}`);
  if (until) args.push(`--min-age=${Math.floor(Date.parse(until) / 1000)}`);
  if (author) args.push('--fixed-strings', `--author=${author}`);
  if (firstParent) args.push('--first-parent');
  if (order === 'topo') args.push('--topo-order');
  if (all) {
    args.push('--all');
  } else {
    const rev = refName || project.default_branch;
    if (!isSafeRevision(rev) || /\s/.test(rev)) throw new HttpError(400, { message: 'ref_name is invalid' });
    args.push('--end-of-options', rev);
  }
  args.push('--');
  if (path) args.push(path);
  return args;
}

export function registerCommits(routes: Router): void {
  routes.get('/projects/:id/repository/commits', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const request = pageRequest(call.params);
    const args = logArguments(call, project, request.perPage, request.offset);
    let commits = repo && args ? await readCommits(repo, args).catch((error: unknown) => {
      // an unknown ref or range lists nothing, as the platform does
      if (error instanceof GitError && error.code === 128) return [];
      throw error;
    }) : [];
    if (!repo) commits = [];
    const withStats = call.params.bool('with_stats') ?? false;
    const stats = withStats && repo ? await commitStats(repo, commits) : null;
    // the platform does not count commits: a full page means there may be a next one
    setPageHeaders(c, request, null, commits.length === request.perPage);
    const trailers = call.params.bool('trailers') ?? false;
    return c.json(commits.map((commit) => ({
      ...commitEntity(call.sandbox, project, commit, { trailers }),
      ...(stats ? { stats: stats.get(commit.id) } : {}),
    })));
  });

  routes.post('/projects/:id/repository/commits', { async: true }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const { params } = call;
    if (projectRole(call, project) < AccessLevel.DEVELOPER) throw forbidden('You are not allowed to push into this branch');
    const branchParam = params.string('branch');
    if (branchParam) requirePushToBranch(call, project, branchParam);
    const actions = validateActions(call);
    const branch = branchParam!;
    const startProject = params.string('start_project');
    if (startProject !== undefined && startProject !== '') {
      const start = findReadableProject(call.sandbox.db, call.actor, startProject, call.now);
      if (start.id !== project.id) {
        // forks do not exist in the sandbox, so no other project is in this one's fork network
        throw forbidden(`Project is not included in the fork network for ${start.name}`);
      }
    }
    const includeStats = params.bool('stats') ?? true;
    const force = params.bool('force') ?? false;
    const repo = writableRepository(call, project);
    const message = params.string('commit_message')!;
    let sha: string;
    let firstBranch = false;
    let before: string | null = null;
    try {
      const plan = await planCommit(repo, {
        branch,
        startBranch: params.string('start_branch'),
        startSha: params.string('start_sha'),
        force,
      });
      firstBranch = plan.firstBranch;
      before = plan.expectedHead;
      const tree = await treeWithActions(repo, plan.parent, actions);
      sha = await commitTree(repo, tree, {
        branch,
        parent: plan.parent,
        expectedHead: plan.expectedHead,
        message,
        author: authorOf(call, { author_name: params.string('author_name'), author_email: params.string('author_email') }),
        committer: committerOf(call),
        when: call.sandbox.now(),
      });
    } catch (error) {
      if (error instanceof CommitFailure) throw commitFailed(error.message);
      throw error;
    }
    recordPush(call.sandbox, project, branch, { firstBranch });
    announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/heads/${branch}`, before: before ?? ZERO_SHA, after: sha }]);
    const commit = (await readCommit(repo, sha))!;
    const stats = includeStats ? (await commitStats(repo, [commit])).get(sha)! : null;
    return c.json(commitDetailEntity(call.sandbox, project, commit, stats), 201);
  });

  routes.get('/projects/:id/repository/commits/:sha', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const includeStats = call.params.bool('stats') ?? true;
    const sha = await findCommit(repo, shaParam(c));
    const commit = (await readCommit(repo!, sha))!;
    const stats = includeStats ? (await commitStats(repo!, [commit])).get(sha)! : null;
    return c.json(commitDetailEntity(call.sandbox, project, commit, stats));
  });

  routes.get('/projects/:id/repository/commits/:sha/refs', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const type = call.params.oneOf('type', ['branch', 'tag', 'all'] as const) ?? 'all';
    const sha = await findCommit(repo, shaParam(c));
    const namespaces = type === 'branch' ? ['refs/heads/'] : type === 'tag' ? ['refs/tags/'] : ['refs/heads/', 'refs/tags/'];
    const text = (await git(repo!, ['for-each-ref', '--format=%(refname)', `--contains=${sha}`, ...namespaces])).stdout.toString('utf8');
    const refs = text.split('\n').filter(Boolean).map((ref) => ref.startsWith('refs/heads/')
      ? { type: 'branch', name: ref.slice('refs/heads/'.length) }
      : { type: 'tag', name: ref.slice('refs/tags/'.length) });
    refs.sort((a, b) => (a.type === b.type ? 0 : a.type === 'branch' ? -1 : 1));
    const request = pageRequest(call.params);
    // the platform fetches one more than the pages asked for and leaves the totals out
    setPageHeaders(c, request, null, refs.length > request.offset + request.perPage);
    return c.json(refs.slice(request.offset, request.offset + request.perPage));
  });

  routes.get('/projects/:id/repository/commits/:sha/sequence', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const firstParent = call.params.bool('first_parent') ?? false;
    const sha = await findCommit(repo, shaParam(c));
    const text = (await git(repo!, ['rev-list', '--count', ...(firstParent ? ['--first-parent'] : []), '--end-of-options', sha])).stdout.toString('utf8');
    return c.json({ count: Number(text.trim()) });
  });

  routes.get('/projects/:id/repository/commits/:sha/diff', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const project = readableRepositoryProject(c, call);
    const repo = repositoryFor(call, project);
    const unidiff = call.params.bool('unidiff') ?? false;
    const sha = await findCommit(repo, shaParam(c));
    const commit = (await readCommit(repo!, sha))!;
    const diffs = await commitDiffs(repo!, sha, commit.parentIds[0] ?? null, unidiff);
    return c.json(pageOfArray(c, call.params, diffs));
  });

  for (const kind of ['cherry_pick', 'revert'] as const) {
    routes.post(`/projects/:id/repository/commits/:sha/${kind}`, { async: true }, async (c, call) => {
      const project = readableRepositoryProject(c, call);
      const { params } = call;
      const rawBranch = params.string('branch');
      if (rawBranch === undefined) throw paramError('branch is missing');
      if (rawBranch.trim() === '') throw paramError('branch is empty');
      const dryRun = params.bool('dry_run') ?? false;
      const customMessage = kind === 'cherry_pick' ? params.string('message') : undefined;
      requirePushToBranch(call, project, rawBranch);
      const repo = repositoryFor(call, project);
      if (!dryRun) requireWritableRepository(call, project);
      const sha = await findCommit(repo, shaParam(c));
      const head = await branchHead(repo, rawBranch);
      if (!head) throw branchNotFound();
      const commit = (await readCommit(repo!, sha))!;
      const verb = kind === 'cherry_pick' ? 'cherry-pick' : 'revert';
      const failure = (code: 'empty' | 'conflict') => new HttpError(400, {
        message: `Sorry, we cannot ${verb} this commit automatically. This commit may already have been ${kind === 'cherry_pick' ? 'cherry-picked' : 'reverted'}, or a more recent commit may have updated some of its content.`,
        error_code: code,
        ...(dryRun ? { dry_run: 'error' } : {}),
      });
      const parent = commit.parentIds[0] ?? null;
      const outcome = kind === 'cherry_pick'
        ? await threeWayTree(repo!, parent, head, sha)
        : await threeWayTree(repo!, sha, head, parent);
      if ('error' in outcome) throw failure(outcome.error);
      if (dryRun) return c.json({ dry_run: 'success' });
      const message = kind === 'cherry_pick'
        ? customMessage || `${commit.message.replace(/\s+$/, '')}\n\n(cherry picked from commit ${sha})`
        : `Revert "${shortTitle(commit.message)}"\n\nThis reverts commit ${sha}`;
      const committer = committerOf(call);
      let newSha: string;
      try {
        newSha = await commitTree(repo!, outcome.tree, {
          branch: rawBranch,
          parent: head,
          expectedHead: head,
          message,
          // a cherry-pick keeps the original author; a revert is the caller's own change
          author: kind === 'cherry_pick' ? { name: commit.authorName, email: commit.authorEmail } : committer,
          authorDate: kind === 'cherry_pick' ? new Date(commit.authoredDate) : undefined,
          committer,
          when: call.sandbox.now(),
        });
      } catch (error) {
        if (error instanceof CommitFailure) throw commitFailed(error.message);
        throw error;
      }
      recordPush(call.sandbox, project, rawBranch, { firstBranch: false });
      announceRefChanges(call.sandbox, project, call.actor.user, repo!, [{ ref: `refs/heads/${rawBranch}`, before: head, after: newSha }]);
      const created = (await readCommit(repo!, newSha))!;
      return c.json(commitEntity(call.sandbox, project, created), 201);
    });
  }
}
