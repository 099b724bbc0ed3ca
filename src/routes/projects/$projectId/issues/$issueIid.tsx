import { createFileRoute } from '@tanstack/react-router';
import { IssueDetailScreen } from '../../../../features/issues/issue-detail-screen.tsx';
import { loadIssueDetail } from '../../../../features/issues/issue-detail-route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/issues/$issueIid')({
  loader: ({ context, params }) => {
    const { projectId, issueIid } = idParams(params);
    return loadIssueDetail(context, projectId, issueIid);
  },
  component: IssueDetailRoute,
});

function IssueDetailRoute() {
  const { projectId, issueIid } = Route.useParams();
  // a new issue is a new screen: drafts, dialogs and the shown part of the timeline start afresh
  return <IssueDetailScreen key={`${projectId}/${issueIid}`} projectId={Number(projectId)} iid={Number(issueIid)} />;
}
