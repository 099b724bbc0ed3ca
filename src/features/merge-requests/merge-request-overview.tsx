import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { TaskDescription } from '../../components/task-description.tsx';
import { Reactions } from '../../components/reactions.tsx';
import { useProjectAuthorCaller } from '../../components/use-project-caller.ts';
import { updateRefusal } from './merge-request-overview-access.ts';
import { useMergeRequestTaskTicks } from './merge-request-overview-mutations.ts';
import { MergeRequestSidebar } from './merge-request-overview-sidebar.tsx';
import { MergeRequestActivity } from './merge-request-threads.tsx';
import './merge-request-overview.css';
import { MergeRequestReviewPanels } from './approval-panel.tsx';

/** The Overview tab: what the merge request is for, in its author's words, then its activity; its people and branches beside. */
export function MergeRequestOverview({ projectId, iid }: { projectId: number; iid: number }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const caller = useProjectAuthorCaller(projectId);
  const target = { projectId, iid };
  const description = request.description ?? '';
  const mayUpdate = updateRefusal(caller, request.author?.id) === null;
  const ticks = useMergeRequestTaskTicks(target, description);
  return (
    <div className="merge-request-overview">
      <div>
        <section aria-label="Description">
          <TaskDescription projectId={projectId} description={description} tasks={request.task_completion_status} ticks={mayUpdate ? ticks : undefined} />
          <Reactions
            noteable={{ projectId, mergeRequestIid: iid }}
            userId={caller.userId}
            canReact={caller.canWrite}
            label="Reactions to this merge request"
            // the request counts its thumbs up and down
            refreshAlso={() => queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.detail(connection, projectId, iid).queryKey })}
          />
        </section>
        <MergeRequestReviewPanels projectId={projectId} iid={iid} />
        <MergeRequestActivity target={target} caller={caller} headSha={request.diff_refs?.head_sha} locked={Boolean(request.discussion_locked)} mayResolve={mayUpdate} />
      </div>
      <MergeRequestSidebar request={request} editable={mayUpdate} />
    </div>
  );
}
