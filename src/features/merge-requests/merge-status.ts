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
