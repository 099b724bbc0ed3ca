import { formatCountOf } from '../../lib/numbers.ts';

/** `detailed_merge_status` in words (spec 2, 2.3). */
const MERGE_STATUS_WORDS: Record<string, string> = {
  mergeable: 'Ready to merge',
  not_open: 'Not open',
  draft_status: 'Draft',
  broken_status: 'Source branch broken',
  commits_status: 'Commits missing',
  ci_must_pass: 'Pipeline must succeed',
  ci_still_running: 'Pipeline still running',
  unchecked: 'Not checked yet',
  checking: 'Checking',
  preparing: 'Preparing',
  conflict: 'Has conflicts',
  need_rebase: 'Needs a rebase',
  discussions_not_resolved: 'Unresolved threads',
  not_approved: 'Approvals missing',
  blocked_status: 'Blocked by another merge request',
  jira_association_missing: 'Jira issue missing',
  requested_changes: 'Changes requested',
  approvals_syncing: 'Approvals syncing',
};

export function mergeStatusWords(status: string | null | undefined): string {
  if (!status) return 'Unknown';
  return MERGE_STATUS_WORDS[status] ?? status.replaceAll('_', ' ');
}

// The merge panel's sentences: what stands in the way and what to do (the labels above are the lists' and cards' short words).

/** How a status reads on the merge panel: ready to merge, blocked until someone acts, or waiting on the platform. */
export type MergeStatusTone = 'ready' | 'blocked' | 'waiting' | 'closed';

export interface MergeStatusExplanation {
  tone: MergeStatusTone;
  /** What stands in the way, in a sentence. */
  summary: string;
  /** What to do about it; null when there is nothing to do (ready, or closed). */
  action: string | null;
}

export interface MergeStatusContext {
  /** Approvals still missing (`approvals_left` of the approvals answer), when known. */
  approvalsLeft?: number | null;
  /** The request's state: merged and closed requests are `not_open`. */
  state?: string;
  targetBranch?: string;
}

/**
 * `detailed_merge_status` in words, with what to do about it (the values the platform documents
 * for GET /projects/:id/merge_requests/:iid; an unknown value is named as it came).
 */
export function explainMergeStatus(status: string | null | undefined, context: MergeStatusContext = {}): MergeStatusExplanation {
  const target = context.targetBranch ? `'${context.targetBranch}'` : 'the target branch';
  switch (status) {
    case 'mergeable':
      return { tone: 'ready', summary: 'Ready to merge: nothing blocks this merge request.', action: null };
    case 'not_open':
      if (context.state === 'merged') return { tone: 'closed', summary: 'This merge request has been merged.', action: null };
      return { tone: 'closed', summary: 'This merge request is not open, so it cannot be merged.', action: 'Reopen it to merge it.' };
    case 'draft_status':
      return { tone: 'blocked', summary: 'This merge request is a draft.', action: 'Mark it as ready: remove "Draft:" from the title.' };
    case 'discussions_not_resolved':
      return { tone: 'blocked', summary: 'Threads are still unresolved, and the project merges only when every thread is resolved.', action: 'Resolve the open threads.' };
    case 'not_approved': {
      const left = context.approvalsLeft;
      const summary = left && left > 0 ? `${formatCountOf(left, 'approval is', 'approvals are')} still missing.` : 'Required approvals are still missing.';
      return { tone: 'blocked', summary, action: 'Ask the eligible approvers to review and approve it.' };
    }
    case 'requested_changes':
      return { tone: 'blocked', summary: 'A reviewer requested changes.', action: 'Make the changes, then ask the reviewer to review again.' };
    case 'conflict':
      return {
        tone: 'blocked',
        summary: `The source branch conflicts with ${target}.`,
        action: `Resolve the conflicts locally: merge or rebase ${target} into the source branch, fix them, and push.`,
      };
    case 'need_rebase':
      return {
        tone: 'blocked',
        summary: `The project merges by fast-forward, and the source branch is behind ${target}.`,
        action: `Rebase the source branch onto ${target} and push.`,
      };
    case 'broken_status':
      return {
        tone: 'blocked',
        summary: 'The source or target branch is missing, so there is nothing to merge.',
        action: 'Push the source branch again, or point the merge request at an existing target branch.',
      };
    case 'commits_status':
      return { tone: 'blocked', summary: `The source branch has no commits that ${target} does not already have.`, action: 'Push commits to the source branch.' };
    case 'ci_must_pass':
      return {
        tone: 'blocked',
        summary: 'The project merges only after a successful pipeline, and the latest pipeline did not succeed.',
        action: 'Fix the pipeline and run it again.',
      };
    case 'ci_still_running':
      return { tone: 'waiting', summary: 'The pipeline is still running.', action: 'Wait for it to finish.' };
    case 'status_checks_must_pass':
      return { tone: 'blocked', summary: 'External status checks have not passed.', action: 'Make the status checks pass.' };
    case 'security_policy_violations':
      return { tone: 'blocked', summary: 'Security policies are not satisfied.', action: 'Resolve the policy violations, or get the approvals the policies ask for.' };
    case 'merge_request_blocked':
    case 'blocked_status':
      return { tone: 'blocked', summary: 'Another merge request this one depends on has not been merged yet.', action: 'Merge the blocking merge request first.' };
    case 'jira_association_missing':
      return {
        tone: 'blocked',
        summary: 'The title or description does not reference a Jira issue, as the project requires.',
        action: 'Add the Jira issue key to the title or description.',
      };
    case 'title_regex':
      return { tone: 'blocked', summary: 'The title does not match the pattern the project requires.', action: "Edit the title to match the project's pattern." };
    case 'locked_paths':
      return { tone: 'blocked', summary: 'Files this merge request changes are locked by another user.', action: 'Ask them to unlock the paths.' };
    case 'locked_lfs_files':
      return { tone: 'blocked', summary: 'LFS files this merge request changes are locked by another user.', action: 'Ask them to unlock the files.' };
    case 'merge_time':
      return { tone: 'waiting', summary: 'The merge request is set to merge after a later date.', action: 'Wait until then, or change the merge-after date.' };
    case 'approvals_syncing':
      return { tone: 'waiting', summary: 'The approvals are being synchronised.', action: 'Wait a moment and reload.' };
    case 'checking':
    case 'unchecked':
    case 'preparing':
      return { tone: 'waiting', summary: 'Whether it can be merged is being checked.', action: 'Wait a moment and reload.' };
    case null:
    case undefined:
      return { tone: 'waiting', summary: 'The instance did not say whether this merge request can be merged.', action: 'Reload to ask again.' };
    default:
      return { tone: 'blocked', summary: `The instance reports that it cannot be merged (${status}).`, action: null };
  }
}

export interface ApprovalRightContext {
  /** From the approvals answer: the platform's verdict for the caller. */
  userCanApprove: boolean;
  userHasApproved: boolean;
  /** The token has `api`: a `read_api` token cannot write. */
  canWrite: boolean;
  requestState: string;
  isAuthor: boolean;
  /** `merge_requests_author_approval` of the project; null while the settings are loading. */
  authorMayApprove: boolean | null;
  /** `merge_requests_disable_committers_approval` of the project; null while the settings are loading. */
  committersMayNotApprove: boolean | null;
  /** The caller authored or committed one of the request's commits; null while unknown. */
  isCommitter: boolean | null;
}

/**
 * Why the caller can or cannot approve, in the order the platform checks: the approvals answer says
 * whether, the project's settings and the request say why.
 */
export function explainApprovalRight(context: ApprovalRightContext): { canApprove: boolean; reason: string } {
  if (context.userHasApproved) return { canApprove: false, reason: 'You approved this merge request.' };
  if (context.userCanApprove) {
    if (!context.canWrite)
      return { canApprove: false, reason: 'You are eligible to approve, but this access token is read-only (read_api): connect with an api token to approve.' };
    return { canApprove: true, reason: 'You can approve this merge request.' };
  }
  if (context.requestState !== 'opened') return { canApprove: false, reason: 'Only open merge requests can be approved.' };
  // the reason waits for the facts that give it: no passing wrong one
  const undecided = { canApprove: false, reason: 'You cannot approve this merge request.' };
  if (context.authorMayApprove === null || context.committersMayNotApprove === null) return undecided;
  if (context.isAuthor && !context.authorMayApprove) {
    return { canApprove: false, reason: 'You cannot approve: you opened this merge request, and the project does not let authors approve their own merge requests.' };
  }
  if (context.committersMayNotApprove && context.isCommitter === null) return undecided;
  if (context.committersMayNotApprove && context.isCommitter) {
    return { canApprove: false, reason: 'You cannot approve: you added commits to this merge request, and the project does not let committers approve.' };
  }
  return { canApprove: false, reason: 'You cannot approve: approving needs the Developer role in this project, or being named in one of its approval rules.' };
}
