import type { Sandbox, UserRow } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { avatarUrl } from '../model/entities.ts';
import { commitHookAttrs, projectHookAttrs, repositoryHookAttrs } from '../model/hook-attrs.ts';
import { announceSourceBranchPushes } from '../model/merge-requests.ts';
import { deliverSystemEvent, deliveryQueue } from '../model/system-hooks.ts';
import { git } from './exec.ts';
import { startPushPipelines } from '../ci/worker.ts';
import { ZERO_SHA, readCommits } from './repository.ts';

/** The platform puts at most this many commits in a push payload (`total_commits_count` has them all). */
const PUSH_COMMITS_LIMIT = 20;

/** One ref a write moved: before and after are ZERO_SHA for a created or deleted ref. */
export interface RefChange {
  ref: string;
  before: string;
  after: string;
}

/** The commits a push brought (oldest last, as the platform lists them) and how many there are in all. */
async function pushedCommits(sandbox: Sandbox, project: ProjectRow, repo: string, change: RefChange) {
  // a new branch carries the commits no other branch had; a deleted ref and a tag carry none
  if (change.after === ZERO_SHA || !change.ref.startsWith('refs/heads/')) return { commits: [], total: 0 };
  const range = change.before === ZERO_SHA
    ? [change.after, '--not', `--exclude=${change.ref.slice('refs/heads/'.length)}`, '--branches']
    : [change.after, '--not', change.before];
  const count = Number((await git(repo, ['rev-list', '--count', ...range])).stdout.toString('utf8').trim()) || 0;
  const commits = count ? await readCommits(repo, [`--max-count=${PUSH_COMMITS_LIMIT}`, ...range]) : [];
  return {
    total: count,
    commits: commits.map((commit) => ({
      ...commitHookAttrs(sandbox, project, commit),
      added: [] as string[],
      modified: [] as string[],
      removed: [] as string[],
    })),
  };
}

async function pushPayload(sandbox: Sandbox, project: ProjectRow, user: UserRow, repo: string, change: RefChange, kind: 'push' | 'tag_push') {
  const { commits, total } = await pushedCommits(sandbox, project, repo, change);
  let checkoutSha: string | null = null;
  if (change.after !== ZERO_SHA) {
    const peeled = await git(repo, ['rev-parse', '--verify', '--quiet', `${change.after}^{commit}`], { okCodes: [1, 128] });
    checkoutSha = peeled.code === 0 ? peeled.stdout.toString('utf8').trim() : null;
  }
  return {
    object_kind: kind,
    event_name: kind,
    before: change.before,
    after: change.after,
    ref: change.ref,
    ref_protected: false,
    checkout_sha: checkoutSha,
    message: null,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: user.email,
    user_avatar: avatarUrl(sandbox, user),
    project_id: project.id,
    project: projectHookAttrs(sandbox, project),
    commits,
    total_commits_count: total,
    push_options: {},
    repository: repositoryHookAttrs(sandbox, project),
  };
}

/**
 * Tells the system hooks about refs a write moved, as the platform's post-receive does: one
 * `push` per branch or `tag_push` per tag, then one `repository_update` for them all. Runs in the
 * background after the request: its git reads and deliveries never slow or fail the write.
 */
export function announceRefChanges(sandbox: Sandbox, project: ProjectRow, user: UserRow | null, repo: string, changes: readonly RefChange[]): void {
  if (!user || !changes.length) return;
  announceSourceBranchPushes(sandbox, project, user, repo, changes);
  startPushPipelines(sandbox, project, user, changes);
  void deliveryQueue(sandbox).run(async () => {
    try {
      const subscribed = sandbox.db.prepare('SELECT max(push_events) AS push, max(tag_push_events) AS tag, max(repository_update_events) AS updates FROM system_hooks')
        .get() as { push: number | null; tag: number | null; updates: number | null };
      for (const change of changes) {
        const kind = change.ref.startsWith('refs/tags/') ? 'tag_push' : 'push';
        if (!(kind === 'push' ? subscribed.push : subscribed.tag)) continue;
        // not awaited: the deliveries take their own places in the queue
        void deliverSystemEvent(sandbox, { kind, data: await pushPayload(sandbox, project, user, repo, change, kind) });
      }
      if (subscribed.updates) {
        void deliverSystemEvent(sandbox, {
          kind: 'repository_update',
          data: {
            event_name: 'repository_update',
            user_id: user.id,
            user_name: user.name,
            user_email: user.email,
            user_avatar: avatarUrl(sandbox, user),
            project_id: project.id,
            project: projectHookAttrs(sandbox, project),
            changes: changes.map(({ before, after, ref }) => ({ before, after, ref })),
            refs: changes.map((change) => change.ref),
          },
        });
      }
    } catch {
      // a repository moved or removed meanwhile, or a closed store: the event is lost, the write stands
    }
  });
}
