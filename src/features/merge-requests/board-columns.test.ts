import { describe, expect, it } from 'vitest';
import { boardColumns, cannotMergeReason, mergedWindowStart, placeRequest, type ApprovalCount, type BoardRequest } from './board-columns.ts';

const open = (changes: Partial<BoardRequest> = {}): BoardRequest => ({
  state: 'opened', draft: false, detailed_merge_status: 'mergeable', has_conflicts: false, blocking_discussions_resolved: true, ...changes,
});
const approvals = (given: number, required: number): ApprovalCount => ({
  approvals_required: required,
  approvals_left: Math.max(required - given, 0),
  approved_by: Array.from({ length: given }, (_, index) => ({ user: { id: index + 1, username: `user${index}`, name: `User ${index}` } })) as ApprovalCount['approved_by'],
});
const column = (request: BoardRequest, count?: ApprovalCount) => placeRequest(request, count)?.column;

describe('the merge request board’s column rule', () => {
  it('puts merged requests in Merged and leaves closed ones off the board', () => {
    expect(column(open({ state: 'merged', detailed_merge_status: 'not_open' }))).toBe('merged');
    expect(placeRequest(open({ state: 'closed', detailed_merge_status: 'not_open' }))).toBeNull();
  });

  it('puts drafts in Draft whatever else holds them back', () => {
    expect(column(open({ draft: true, detailed_merge_status: 'draft_status', has_conflicts: true }))).toBe('draft');
    expect(column(open({ detailed_merge_status: 'draft_status' }))).toBe('draft');
  });

  it('puts conflicts, unresolved blocking threads and requested changes in Changes to make, even when approved', () => {
    expect(column(open({ has_conflicts: true, detailed_merge_status: 'conflict' }), approvals(2, 2))).toBe('changes');
    expect(column(open({ has_conflicts: true, detailed_merge_status: 'need_rebase' }))).toBe('changes');
    expect(column(open({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' }))).toBe('changes');
    expect(column(open({ detailed_merge_status: 'requested_changes' }))).toBe('changes');
  });

  it('puts mergeable requests in Ready to merge and those missing approvals in Awaiting review', () => {
    expect(column(open())).toBe('ready');
    expect(column(open({ detailed_merge_status: 'not_approved' }), approvals(1, 2))).toBe('awaiting');
    expect(placeRequest(open({ detailed_merge_status: 'not_approved' }))).toEqual({ column: 'awaiting', needsApprovals: false });
  });

  it('puts a request blocked outside review in Approved once its approvals are complete', () => {
    for (const status of ['need_rebase', 'ci_must_pass', 'ci_still_running', 'unchecked', 'blocked_status']) {
      expect(column(open({ detailed_merge_status: status }), approvals(1, 1)), status).toBe('approved');
      expect(column(open({ detailed_merge_status: status }), approvals(1, 0)), status).toBe('approved');
      expect(column(open({ detailed_merge_status: status }), approvals(1, 2)), status).toBe('awaiting');
      // no rule and nobody approved: nobody has reviewed it
      expect(column(open({ detailed_merge_status: status }), approvals(0, 0)), status).toBe('awaiting');
    }
  });

  it('waits for the approvals where only they can tell, counting the request as awaiting review meanwhile', () => {
    expect(placeRequest(open({ detailed_merge_status: 'need_rebase' }))).toEqual({ column: 'awaiting', needsApprovals: true });
    expect(placeRequest(open({ detailed_merge_status: 'mergeable' }))).toEqual({ column: 'ready', needsApprovals: false });
  });

  it('says why a request cannot merge, in words', () => {
    expect(cannotMergeReason(open())).toBeNull();
    expect(cannotMergeReason(open({ state: 'merged', detailed_merge_status: 'not_open' }))).toBeNull();
    expect(cannotMergeReason(open({ detailed_merge_status: 'need_rebase' }))).toBe('Needs a rebase');
    expect(cannotMergeReason(open({ has_conflicts: true, detailed_merge_status: 'need_rebase' }))).toBe('Has conflicts');
    expect(cannotMergeReason(open({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' }))).toBe('Unresolved threads');
  });

  it('sorts a list of requests into columns once each, merged ones only within the window', () => {
    const since = new Date('2026-11-19T10:00:00Z');
    const request = (id: number, changes: Partial<BoardRequest> & { merged_at?: string | null } = {}) => ({ id, iid: id, project_id: 1, merged_at: null, ...open(), ...changes });
    const requests = [
      request(1),
      request(2, { detailed_merge_status: 'need_rebase' }),
      request(3, { detailed_merge_status: 'need_rebase' }),
      request(4, { state: 'merged', detailed_merge_status: 'not_open', merged_at: '2026-11-20T00:00:00Z' }),
      request(5, { state: 'merged', detailed_merge_status: 'not_open', merged_at: '2026-11-01T00:00:00Z' }),
      request(1),
    ];
    const columns = boardColumns(requests, (item) => (item.id === 2 ? approvals(1, 1) : undefined), since);
    const ids = (key: keyof typeof columns) => columns[key].map((card) => card.request.id);
    expect(ids('ready')).toEqual([1]);
    expect(ids('approved')).toEqual([2]);
    expect(ids('awaiting')).toEqual([3]);
    expect(columns.awaiting[0].needsApprovals).toBe(true);
    expect(ids('merged')).toEqual([4]);
    expect(ids('draft')).toEqual([]);
  });

  it('starts the merged window 7 days back, on the hour', () => {
    expect(mergedWindowStart(new Date('2026-11-26T08:47:12.345Z')).toISOString()).toBe('2026-11-19T08:00:00.000Z');
  });
});
