import { useMemo } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { Markdown } from '../../components/markdown.tsx';
import { projectReferenceHref } from '../../components/project-references.ts';
import { MergeRequestReviewPanels } from './approval-panel.tsx';

/** The Overview tab: what the merge request is for, in its author's words. */
export function MergeRequestOverview({ projectId, iid }: { projectId: number; iid: number }) {
  const connection = useConnection();
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const references = useMemo(() => ({ context: { project: String(projectId) }, href: projectReferenceHref(projectId) }), [projectId]);
  const description = request.description ?? '';
  return (
    <>
      <section aria-label="Description">
        {description.trim() ? <Markdown source={description} instanceUrl={connection.instanceUrl} references={references} /> : <p className="muted">No description.</p>}
      </section>
      <MergeRequestReviewPanels projectId={projectId} iid={iid} />
    </>
  );
}
