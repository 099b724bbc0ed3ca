import { describe, expect, it } from 'vitest';
import { clientTestSandbox } from '../../api/test-sandbox.ts';
import { request } from '../../api/http.ts';
import { issueSchema } from '../../api/issues.ts';
import { runBulk, type BulkOutcome } from './bulk-edit.tsx';
import type { BulkTarget } from './bulk-target.ts';

describe('a bulk write against the sandbox', () => {
  const sandbox = clientTestSandbox();

  it('sends one write per issue through its own project, reports each outcome in the selection’s order, and goes on past a failure', async () => {
    const connection = sandbox.connection();
    const [first, second] = [await sandbox.post('/projects', { name: 'bulk-a' }), await sandbox.post('/projects', { name: 'bulk-b' })];
    const targets: BulkTarget[] = [];
    for (const [index, project] of [first, first, second, second, first].entries()) {
      const issue = await sandbox.post<{ id: number; iid: number; project_id: number }>(`/projects/${project.id}/issues`, { title: `Issue ${index}` });
      targets.push({ id: issue.id, iid: issue.iid, projectId: issue.project_id, reference: `#${issue.iid}` });
    }
    // an issue that is not there: its write fails, the others still go
    const missing: BulkTarget = { id: 999_999, iid: 999, projectId: second.id, reference: 'bulk-b#999' };
    const selection = [...targets.slice(0, 3), missing, ...targets.slice(3)];
    const progress: number[] = [];
    const outcomes = await runBulk(connection, { targets: selection, action: { kind: 'edit', changes: { add_labels: ['triaged'], state_event: 'close' } } }, (so: BulkOutcome[]) => progress.push(so.length));

    expect(outcomes.map((outcome) => outcome.target.id)).toEqual(selection.map((target) => target.id));
    expect(outcomes.filter((outcome) => outcome.failure).map((outcome) => outcome.target.reference)).toEqual(['bulk-b#999']);
    expect(outcomes.find((outcome) => outcome.failure)?.failure).toMatch(/not found/i);
    // progress after every issue, one at a time
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    for (const target of targets) {
      const issue = await request(connection, `/projects/${target.projectId}/issues/${target.iid}`, issueSchema);
      expect(issue.state).toBe('closed');
      expect(issue.labels).toEqual(['triaged']);
    }
  });
});
