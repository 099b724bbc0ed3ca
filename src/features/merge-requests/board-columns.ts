import type { MergeRequest } from '../../api/merge-requests.ts';
import type { Approvals } from '../../api/approvals.ts';
import { mergeStatusWords } from './merge-status.ts';

/**
 * The merge request board's columns and the one rule that puts a request in one of them, from
 * what the list entity says (`state`, `draft`, `detailed_merge_status`, `has_conflicts`,
 * `blocking_discussions_resolved`, spec 2, 2.3) and, where the list entity cannot tell, the
 * request's approvals (spec 2, 2.5). Pure, so the rule is tested apart from the screen.
 */

export const BOARD_COLUMNS = [
  { key: 'draft', title: 'Draft' },
  { key: 'awaiting', title: 'Awaiting review' },
  { key: 'changes', title: 'Changes to make' },
  { key: 'approved', title: 'Approved' },
  { key: 'ready', title: 'Ready to merge' },
  { key: 'merged', title: 'Merged in the last 7 days' },
] as const;
export type BoardColumnKey = (typeof BOARD_COLUMNS)[number]['key'];

export type BoardRequest = Pick<MergeRequest, 'state' | 'draft' | 'detailed_merge_status' | 'has_conflicts' | 'blocking_discussions_resolved'>;
export type ApprovalCount = Pick<Approvals, 'approvals_required' | 'approvals_left' | 'approved_by'>;

export interface Placement {
  column: BoardColumnKey;
  /**
   * The column waits for the request's approvals: merging is blocked by something outside review
   * (a rebase, a pipeline, the status not computed yet), and only the approvals say whether review
   * is done. Until they arrive the request counts as awaiting review.
   */
  needsApprovals: boolean;
}

/** Statuses that say review itself is what is missing or what failed. */
const CHANGES_STATUSES = new Set(['conflict', 'discussions_not_resolved', 'requested_changes']);

/** Whether review is done: no approval left and at least one given (with no rule and no approval, nobody has reviewed). */
export function approvalsComplete(approvals: ApprovalCount): boolean {
  return approvals.approvals_left <= 0 && (approvals.approved_by.length > 0 || approvals.approvals_required > 0);
}

/**
 * Where a request goes, first match wins: merged; a draft; changes to make (conflicts, unresolved
 * blocking threads, changes requested); ready to merge (`mergeable`); awaiting review (approvals
 * missing); otherwise blocked outside review: approved once its approvals are complete, awaiting
 * review until then. Closed requests are on no column (null).
 */
export function placeRequest(request: BoardRequest, approvals?: ApprovalCount): Placement | null {
  const status = request.detailed_merge_status ?? '';
  const at = (column: BoardColumnKey, needsApprovals = false): Placement => ({ column, needsApprovals });
  if (request.state === 'merged') return at('merged');
  if (request.state !== 'opened') return null;
  if (request.draft || status === 'draft_status') return at('draft');
  if (request.has_conflicts || !request.blocking_discussions_resolved || CHANGES_STATUSES.has(status)) return at('changes');
  if (status === 'mergeable') return at('ready');
  if (status === 'not_approved') return at('awaiting');
  if (!approvals) return at('awaiting', true);
  return at(approvalsComplete(approvals) ? 'approved' : 'awaiting');
}

/**
 * The requests of each column in the order given; merged ones only when merged since `mergedSince`
 * (the list asks by `updated_after`, which a later edit also moves). A request listed twice (pages
 * shifting while they load) is kept once.
 */
export function boardColumns<R extends BoardRequest & Pick<MergeRequest, 'id' | 'merged_at' | 'project_id' | 'iid'>>(
  requests: readonly R[],
  approvalsOf: (request: R) => ApprovalCount | undefined,
  mergedSince: Date,
): Record<BoardColumnKey, Array<{ request: R; needsApprovals: boolean }>> {
  const columns = Object.fromEntries(BOARD_COLUMNS.map(({ key }) => [key, []])) as unknown as Record<BoardColumnKey, Array<{ request: R; needsApprovals: boolean }>>;
  const seen = new Set<number>();
  for (const request of requests) {
    if (seen.has(request.id)) continue;
    seen.add(request.id);
    if (request.state === 'merged' && !(request.merged_at && Date.parse(request.merged_at) >= mergedSince.getTime())) continue;
    const placement = placeRequest(request, approvalsOf(request));
    if (placement) columns[placement.column].push({ request, needsApprovals: placement.needsApprovals });
  }
  return columns;
}

/** The start of the merged column's window: 7 days before `now`, on the hour, so the query's key holds still for an hour. */
export function mergedWindowStart(now: Date): Date {
  const start = new Date(now.getTime() - 7 * 24 * 3600_000);
  start.setUTCMinutes(0, 0, 0);
  return start;
}

/** Why an open request cannot merge, in words (null when it can, or is not open). */
export function cannotMergeReason(request: BoardRequest): string | null {
  if (request.state !== 'opened' || request.detailed_merge_status === 'mergeable') return null;
  if (request.has_conflicts) return mergeStatusWords('conflict');
  if (!request.blocking_discussions_resolved) return mergeStatusWords('discussions_not_resolved');
  return mergeStatusWords(request.detailed_merge_status);
}
