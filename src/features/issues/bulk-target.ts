import type { Issue } from '../../api/issues.ts';

/** An issue of the selection: each is written through its own project, wherever the list was. */
export interface BulkTarget {
  id: number;
  iid: number;
  projectId: number;
  reference: string;
}

export function bulkTarget(issue: Issue): BulkTarget {
  return { id: issue.id, iid: issue.iid, projectId: issue.project_id, reference: issue.references?.full ?? `#${issue.iid}` };
}
