import type { Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { gitSync } from '../git/exec.ts';
import crypto from 'node:crypto';
import { MR_BRANCHES } from './repositories.ts';

/**
 * The web app's demo merge requests, one in every state the console shows: a draft, one awaiting
 * review, partly and fully approved ones, one with conflicts, one with unresolved threads, the
 * big one (100 files, 5,000 lines), a merged and a closed one. Rows go in with prepared inserts
 * inside the demo seed's transaction; git is asked twice (branch heads, the merge commit).
 */

const DAY_MS = 86_400_000;

/** The iid of each demo merge request in DEMO_PATHS.mergeRequests, by what it shows. */
export const DEMO_MERGE_REQUESTS = {
  merged: 42,
  draft: 43,
  awaitingReview: 44,
  partlyApproved: 45,
  approved: 46,
  conflict: 47,
  unresolvedThreads: 48,
  big: 49,
  closed: 50,
} as const;

/** Two approvals from anyone, so "partly approved" and "approved" both exist. */
export const DEMO_APPROVALS_REQUIRED = 2;

interface Spec {
  iid: number;
  branch: string;
  title: string;
  description: string;
  author: string;
  reviewers: string[];
  assignees?: string[];
  labels: string[];
  approvedBy?: string[];
  state?: 'opened' | 'merged' | 'closed';
  daysAgo: number;
}

export function seedDemoMergeRequests(sandbox: Sandbox, project: ProjectRow, repo: string, anchor: Date): void {
  const { db } = sandbox;
  const users = new Map((db.prepare("SELECT id, username FROM users WHERE username IN ('grace.okafor', 'maya.chen', 'diego.ramirez', 'hiroshi.tanaka')").all() as Array<{ id: number; username: string }>)
    .map((row) => [row.username, row.id]));
  if (users.size < 4) return;
  const id = (username: string) => users.get(username)!;
  const heads = new Map<string, string>();
  for (const line of gitSync(repo, ['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads/']).toString('utf8').split('\n')) {
    if (line) heads.set(line.slice(41), line.slice(0, 40));
  }
  const at = (daysAgo: number, minutes = 0) => new Date(anchor.getTime() - daysAgo * DAY_MS + minutes * 60_000).toISOString();

  const specs: Spec[] = [
    { iid: DEMO_MERGE_REQUESTS.draft, branch: MR_BRANCHES.draft, title: 'Draft: Dark theme that follows the system setting', description: 'Still deciding on the palette. **Not ready.**', author: 'maya.chen', reviewers: [], labels: ['frontend'], daysAgo: 5 },
    { iid: DEMO_MERGE_REQUESTS.awaitingReview, branch: MR_BRANCHES.awaitingReview, title: 'Product search in the header', description: 'Adds a search field.\n\n- [x] input with a label\n- [ ] results page', author: 'maya.chen', reviewers: ['diego.ramirez', 'grace.okafor'], labels: ['frontend', 'feature'], daysAgo: 4 },
    { iid: DEMO_MERGE_REQUESTS.partlyApproved, branch: MR_BRANCHES.partlyApproved, title: 'Wishlist: save products for later', description: 'Closes #512', author: 'hiroshi.tanaka', reviewers: ['diego.ramirez', 'maya.chen'], labels: ['feature'], approvedBy: ['maya.chen'], daysAgo: 3.5 },
    { iid: DEMO_MERGE_REQUESTS.approved, branch: MR_BRANCHES.approved, title: 'Coupon codes at checkout', description: 'WELCOME10 gives 10% off.', author: 'grace.okafor', reviewers: ['maya.chen', 'diego.ramirez'], assignees: ['grace.okafor'], labels: ['checkout'], approvedBy: ['maya.chen', 'hiroshi.tanaka'], daysAgo: 3 },
    { iid: DEMO_MERGE_REQUESTS.conflict, branch: MR_BRANCHES.conflict, title: 'Show the order total in the summary', description: 'Branched before the summary revisions; needs a rebase.', author: 'diego.ramirez', reviewers: ['maya.chen'], labels: ['bug'], daysAgo: 2.5 },
    { iid: DEMO_MERGE_REQUESTS.unresolvedThreads, branch: MR_BRANCHES.threads, title: 'Address autocomplete', description: 'Suggests addresses while typing.', author: 'maya.chen', reviewers: ['diego.ramirez'], labels: ['frontend', 'feature'], daysAgo: 2 },
    { iid: DEMO_MERGE_REQUESTS.big, branch: MR_BRANCHES.big, title: 'Design tokens generated from Figma', description: '100 token files, 5,000 lines. Generated; review the generator, skim the output.', author: 'grace.okafor', reviewers: ['diego.ramirez', 'hiroshi.tanaka'], labels: ['design-system'], daysAgo: 1 },
    { iid: DEMO_MERGE_REQUESTS.closed, branch: 'fix/login-redirect', title: 'Keep the return URL through the login redirect', description: 'Closes #118\n\nSuperseded by the new auth flow.', author: 'diego.ramirez', reviewers: ['maya.chen'], labels: ['bug'], state: 'closed', daysAgo: 30 },
  ];

  const insert = db.prepare(
    `INSERT INTO merge_requests (iid, project_id, title, description, state, source_branch, target_branch, author_id, labels, squash, force_remove_source_branch,
       allow_collaboration, merge_status, head_sha, merge_commit_sha, merge_user_id, merged_at, closed_by_id, closed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'main', ?, ?, 0, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const reviewer = db.prepare('INSERT INTO merge_request_reviewers (merge_request_id, user_id, position, state, created_at) VALUES (?, ?, ?, ?, ?)');
  const assignee = db.prepare('INSERT INTO merge_request_assignees (merge_request_id, user_id, position) VALUES (?, ?, ?)');
  const approval = db.prepare('INSERT INTO merge_request_approvals (merge_request_id, user_id, created_at) VALUES (?, ?, ?)');
  const note = db.prepare(
    `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at, discussion_id, type, resolvable,
       resolved_by_id, resolved_at, position) VALUES ('MergeRequest', ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const award = db.prepare("INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) VALUES (?, ?, 'MergeRequest', ?, ?, ?)");
  const ids = new Map<number, number>();
  for (const spec of specs) {
    const created = at(spec.daysAgo);
    const closed = spec.state === 'closed';
    const row = insert.run(
      spec.iid, project.id, spec.title, spec.description, spec.state ?? 'opened', spec.branch, id(spec.author), JSON.stringify([...spec.labels].sort()),
      spec.branch === MR_BRANCHES.conflict ? 'cannot_be_merged' : 'can_be_merged', heads.get(spec.branch) ?? null, null, null, null,
      closed ? id('maya.chen') : null, closed ? at(spec.daysAgo - 2) : null, created, closed ? at(spec.daysAgo - 2) : at(spec.daysAgo, 90),
    );
    const mrId = Number(row.lastInsertRowid);
    ids.set(spec.iid, mrId);
    spec.reviewers.forEach((name, position) => reviewer.run(mrId, id(name), position, spec.approvedBy?.includes(name) ? 'approved' : 'unreviewed', created));
    (spec.assignees ?? [spec.author]).forEach((name, position) => assignee.run(mrId, id(name), position));
    spec.approvedBy?.forEach((name, index) => approval.run(mrId, id(name), at(spec.daysAgo, 60 + index * 30)));
  }

  // the merged request behind the merge commit already on main ("See merge request ...!42")
  const mergeCommit = gitSync(repo, ['log', '--merges', '-1', '--format=%H', 'main']).toString('utf8').trim();
  const checkoutHead = heads.get('feature/checkout');
  if (mergeCommit && checkoutHead) {
    const mergedAt = gitSync(repo, ['log', '-1', '--format=%cI', mergeCommit]).toString('utf8').trim();
    const mergedIso = new Date(mergedAt).toISOString();
    const created = new Date(new Date(mergedIso).getTime() - 2 * DAY_MS).toISOString();
    const row = insert.run(
      DEMO_MERGE_REQUESTS.merged, project.id, 'Checkout flow with card validation', 'Adds the checkout form, validates card fields and shows payment errors.', 'merged', 'feature/checkout',
      id('diego.ramirez'), JSON.stringify(['checkout', 'feature']), 'can_be_merged', checkoutHead, mergeCommit, id('maya.chen'), mergedIso, null, null, created, mergedIso,
    );
    const mrId = Number(row.lastInsertRowid);
    reviewer.run(mrId, id('maya.chen'), 0, 'approved', created);
    approval.run(mrId, id('maya.chen'), mergedIso);
    award.run('thumbsup', id('grace.okafor'), mrId, mergedIso, mergedIso);
  }

  // threads: two open ones (one on a line of the changes) and a resolved one on the autocomplete request
  const threadsId = ids.get(DEMO_MERGE_REQUESTS.unresolvedThreads)!;
  const base = gitSync(repo, ['merge-base', 'main', MR_BRANCHES.threads]).toString('utf8').trim();
  const position = JSON.stringify({
    position_type: 'text', base_sha: base, start_sha: heads.get('main'), head_sha: heads.get(MR_BRANCHES.threads),
    old_path: 'src/lib/places.ts', new_path: 'src/lib/places.ts', old_line: null, new_line: 2,
  });
  const thread = (notes: Array<[string, string]>, minutes: number, options: { position?: string; resolvedBy?: string } = {}) => {
    // the same ids from every seed
    const discussion = crypto.createHash('sha1').update(`demo-thread:${minutes}`).digest('hex');
    notes.forEach(([author, body], index) => {
      const when = at(2, minutes + index * 15);
      note.run(
        threadsId, project.id, id(author), body, when, when, discussion, options.position && index === 0 ? 'DiffNote' : 'DiscussionNote', 1,
        options.resolvedBy ? id(options.resolvedBy) : null, options.resolvedBy ? at(2, minutes + 120) : null, index === 0 ? options.position ?? null : null,
      );
    });
  };
  thread([['diego.ramirez', 'This sends every keystroke to the API. Debounce it?'], ['maya.chen', 'Good point, will add 300 ms.']], 120, { position });
  thread([['diego.ramirez', 'What happens when the places API is down? The field should still accept typing.']], 180);
  thread([['diego.ramirez', 'Nit: `autoComplete` needs the camel case in JSX.'], ['maya.chen', 'It has it already.']], 200, { resolvedBy: 'diego.ramirez' });
  // a comment and votes elsewhere
  const comment = (iid: number, author: string, body: string, minutes: number) => {
    const when = at(specs.find((spec) => spec.iid === iid)!.daysAgo, minutes);
    note.run(ids.get(iid)!, project.id, id(author), body, when, when, null, null, 0, null, null, null);
  };
  comment(DEMO_MERGE_REQUESTS.awaitingReview, 'grace.okafor', 'Looks good so far; I will review the results page separately.', 240);
  comment(DEMO_MERGE_REQUESTS.approved, 'hiroshi.tanaka', 'Approved. Nice and small.', 120);
  for (const [iid, name, who] of [
    [DEMO_MERGE_REQUESTS.approved, 'thumbsup', 'diego.ramirez'], [DEMO_MERGE_REQUESTS.approved, 'thumbsup', 'maya.chen'],
    [DEMO_MERGE_REQUESTS.big, 'eyes', 'hiroshi.tanaka'], [DEMO_MERGE_REQUESTS.conflict, 'thumbsdown', 'grace.okafor'],
  ] as const) {
    const when = at(1);
    award.run(name, id(who), ids.get(iid)!, when, when);
  }

  // the rule sits on each open demo request, not on the project: requests made later (tests, the client library) merge without approvals
  const rule = db.prepare('INSERT INTO approval_rules (project_id, merge_request_id, name, rule_type, approvals_required) VALUES (?, ?, ?, ?, ?)');
  for (const spec of specs) if ((spec.state ?? 'opened') === 'opened') rule.run(project.id, ids.get(spec.iid)!, 'Frontend approvals', 'any_approver', DEMO_APPROVALS_REQUIRED);
  db.prepare('INSERT INTO merge_request_iids (project_id, last_iid) VALUES (?, ?) ON CONFLICT(project_id) DO UPDATE SET last_iid = excluded.last_iid')
    .run(project.id, Math.max(...Object.values(DEMO_MERGE_REQUESTS)));
}
