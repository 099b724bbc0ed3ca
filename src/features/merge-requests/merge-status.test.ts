import { describe, expect, it } from 'vitest';
import { explainApprovalRight, explainMergeStatus, type ApprovalRightContext } from './merge-status.ts';

describe('detailed_merge_status in words', () => {
  it('says a mergeable request is ready, with nothing to do', () => {
    expect(explainMergeStatus('mergeable')).toEqual({ tone: 'ready', summary: 'Ready to merge: nothing blocks this merge request.', action: null });
  });

  it('tells what to do about each blocker', () => {
    expect(explainMergeStatus('draft_status').action).toBe('Mark it as ready: remove "Draft:" from the title.');
    expect(explainMergeStatus('discussions_not_resolved').action).toBe('Resolve the open threads.');
    expect(explainMergeStatus('conflict', { targetBranch: 'main' })).toMatchObject({
      tone: 'blocked',
      summary: "The source branch conflicts with 'main'.",
      action: "Resolve the conflicts locally: merge or rebase 'main' into the source branch, fix them, and push.",
    });
    expect(explainMergeStatus('need_rebase', { targetBranch: 'main' }).action).toBe("Rebase the source branch onto 'main' and push.");
    expect(explainMergeStatus('broken_status').tone).toBe('blocked');
    expect(explainMergeStatus('commits_status').action).toBe('Push commits to the source branch.');
  });

  it('counts the missing approvals', () => {
    expect(explainMergeStatus('not_approved', { approvalsLeft: 2 }).summary).toBe('2 approvals are still missing.');
    expect(explainMergeStatus('not_approved', { approvalsLeft: 1 }).summary).toBe('1 approval is still missing.');
    expect(explainMergeStatus('not_approved').summary).toBe('Required approvals are still missing.');
  });

  it('tells a merged request from a closed one', () => {
    expect(explainMergeStatus('not_open', { state: 'merged' })).toEqual({ tone: 'closed', summary: 'This merge request has been merged.', action: null });
    expect(explainMergeStatus('not_open', { state: 'closed' })).toMatchObject({ tone: 'closed', action: 'Reopen it to merge it.' });
  });

  it('waits while the platform checks, and names a status it does not know', () => {
    for (const status of ['checking', 'unchecked', 'preparing', 'ci_still_running', 'approvals_syncing']) expect(explainMergeStatus(status).tone).toBe('waiting');
    expect(explainMergeStatus(undefined).tone).toBe('waiting');
    expect(explainMergeStatus('something_new')).toEqual({ tone: 'blocked', summary: 'The instance reports that it cannot be merged (something_new).', action: null });
  });

  it('has words for every status the platform documents', () => {
    const documented = [
      'approvals_syncing',
      'checking',
      'ci_must_pass',
      'ci_still_running',
      'commits_status',
      'conflict',
      'discussions_not_resolved',
      'draft_status',
      'jira_association_missing',
      'locked_lfs_files',
      'locked_paths',
      'mergeable',
      'merge_request_blocked',
      'merge_time',
      'need_rebase',
      'not_approved',
      'not_open',
      'preparing',
      'requested_changes',
      'security_policy_violations',
      'status_checks_must_pass',
      'title_regex',
      'unchecked',
      'broken_status',
    ];
    for (const status of documented) expect(explainMergeStatus(status).summary, status).not.toContain('reports that it cannot be merged');
  });
});

describe('why the caller can or cannot approve', () => {
  const base: ApprovalRightContext = {
    userCanApprove: false,
    userHasApproved: false,
    canWrite: true,
    requestState: 'opened',
    isAuthor: false,
    authorMayApprove: false,
    committersMayNotApprove: false,
    isCommitter: false,
  };

  it('follows the platform’s verdict, and says why', () => {
    expect(explainApprovalRight({ ...base, userCanApprove: true })).toEqual({ canApprove: true, reason: 'You can approve this merge request.' });
    expect(explainApprovalRight({ ...base, userHasApproved: true })).toEqual({ canApprove: false, reason: 'You approved this merge request.' });
    expect(explainApprovalRight({ ...base, userCanApprove: true, canWrite: false }).canApprove).toBe(false);
    expect(explainApprovalRight({ ...base, requestState: 'merged' }).reason).toBe('Only open merge requests can be approved.');
  });

  it('names the author rule and the committer rule', () => {
    expect(explainApprovalRight({ ...base, isAuthor: true }).reason).toContain('you opened this merge request');
    // the author may approve here: the refusal has another reason
    expect(explainApprovalRight({ ...base, isAuthor: true, authorMayApprove: true }).reason).toContain('Developer role');
    expect(explainApprovalRight({ ...base, committersMayNotApprove: true, isCommitter: true }).reason).toContain('you added commits');
    expect(explainApprovalRight({ ...base, committersMayNotApprove: true, isCommitter: false }).reason).toContain('Developer role');
  });

  it('gives no reason before the facts behind it are in', () => {
    const undecided = { canApprove: false, reason: 'You cannot approve this merge request.' };
    expect(explainApprovalRight({ ...base, isAuthor: true, authorMayApprove: null, committersMayNotApprove: null })).toEqual(undecided);
    expect(explainApprovalRight({ ...base, committersMayNotApprove: true, isCommitter: null })).toEqual(undecided);
    // the platform's own verdict needs no settings
    expect(explainApprovalRight({ ...base, userCanApprove: true, authorMayApprove: null, committersMayNotApprove: null }).canApprove).toBe(true);
  });
});
