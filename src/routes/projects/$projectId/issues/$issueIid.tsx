import { createFileRoute, notFound } from '@tanstack/react-router';
import { IssueDetailScreen } from '../../../../features/issues/issue-detail-screen.tsx';
import { issueParam, loadIssueDetail } from '../../../../features/issues/issue-detail-route-options.ts';

export const Route = createFileRoute('/projects/$projectId/issues/$issueIid')({
  loader: ({ context, params }) => {
    const projectId = issueParam(params.projectId);
    const iid = issueParam(params.issueIid);
    if (projectId === null || iid === null) throw notFound();
    return loadIssueDetail(context, projectId, iid);
  },
  component: IssueDetailRoute,
});

function IssueDetailRoute() {
  const { projectId, issueIid } = Route.useParams();
  // a new issue is a new screen: drafts, dialogs and the shown part of the timeline start afresh
  return <IssueDetailScreen key={`${projectId}/${issueIid}`} projectId={Number(projectId)} iid={Number(issueIid)} />;
}
