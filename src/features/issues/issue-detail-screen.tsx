import { useId, useState } from 'react';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { issuesQueries } from '../../api/issues.ts';
import { useConnection } from '../../api/react.ts';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { deleteRefusal, editRefusal, useIssueCaller } from './issue-detail-access.ts';
import { CloneIssueDialog, DeleteIssueDialog, MoveIssueDialog } from './issue-detail-dialogs.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { TaskDescription } from '../../components/task-description.tsx';
import { useIssueTaskTicks, useUpdateIssue } from './issue-detail-mutations.ts';
import { Reactions } from '../../components/reactions.tsx';
import { IssueSidebar } from './issue-detail-sidebar.tsx';
import { IssueTimeline } from './issue-detail-timeline.tsx';
import './issue-detail.css';

type Dialog = 'move' | 'clone' | 'delete' | null;

/** One issue: its text, its fields, its activity, and what can be done with it. */
export function IssueDetailScreen({ projectId, iid }: { projectId: number; iid: number }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const issue = useSuspenseQuery(issuesQueries.detail(connection, projectId, iid)).data;
  const issueRef = { projectId, iid };
  const caller = useIssueCaller(projectId);
  const edit = editRefusal(caller, issue.author?.id);
  const deletion = deleteRefusal(caller);
  const state = useUpdateIssue(issueRef);
  const [dialog, setDialog] = useState<Dialog>(null);
  const headingId = useId();
  const description = issue.description ?? '';
  const ticks = useIssueTaskTicks(issueRef, description);
  return (
    <article className="screen issue-detail" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{issue.title}</h1>
        <p>
          <span className={issue.state === 'closed' ? 'badge' : 'badge badge--role'}>{issue.state === 'closed' ? 'Closed' : 'Open'}</span>{' '}
          {issue.confidential ? <span className="badge badge--warning">Confidential</span> : null} {issue.discussion_locked ? <span className="badge">Locked</span> : null}{' '}
          <span className="muted">{issue.references?.full ?? `#${issue.iid}`}</span> · opened{' '}
          <time dateTime={issue.created_at} title={formatDateTime(issue.created_at)}>
            {formatRelative(issue.created_at)}
          </time>{' '}
          by {issue.author?.name ?? 'someone'}
          {issue.moved_to_id ? <span className="notice"> This issue was moved to another project.</span> : null}
        </p>
        <span className="row-actions">
          {edit === null ? (
            <button type="button" className="button" disabled={state.isPending} onClick={() => state.mutate({ state_event: issue.state === 'closed' ? 'reopen' : 'close' })}>
              {issue.state === 'closed' ? 'Reopen issue' : 'Close issue'}
            </button>
          ) : null}
          {caller.canWrite ? (
            <>
              <button type="button" className="button" onClick={() => setDialog('move')}>
                Move…
              </button>
              <button type="button" className="button" onClick={() => setDialog('clone')}>
                Clone…
              </button>
              <button type="button" className="button button--danger-quiet" disabled={deletion !== null} aria-describedby={deletion ? `${headingId}-delete` : undefined} onClick={() => setDialog('delete')}>
                Delete…
              </button>
            </>
          ) : null}
        </span>
        {deletion && caller.canWrite && caller.roleKnown ? (
          <p className="muted" id={`${headingId}-delete`}>
            {deletion}
          </p>
        ) : null}
        <WriteOutcome write={state} />
      </header>
      <div className="issue-detail__columns">
        <div className="issue-detail__main">
          <section aria-label="Description">
            <TaskDescription projectId={projectId} description={description} tasks={issue.task_completion_status} ticks={edit === null ? ticks : undefined} />
            <p className="muted">
              {issue.upvotes ?? 0} {issue.upvotes === 1 ? 'upvote' : 'upvotes'}, {issue.downvotes ?? 0} {issue.downvotes === 1 ? 'downvote' : 'downvotes'}
            </p>
            <Reactions
              noteable={{ projectId, issueIid: iid }}
              userId={caller.userId}
              canReact={caller.canWrite}
              label="Reactions to this issue"
              // the upvotes above count the reactions
              refreshAlso={() => queryClient.invalidateQueries({ queryKey: issuesQueries.detail(connection, projectId, iid).queryKey })}
            />
          </section>
          <IssueTimeline issueRef={issueRef} caller={caller} locked={issue.discussion_locked} />
        </div>
        <IssueSidebar issue={issue} issueRef={issueRef} editRefusal={edit} announce={caller.canWrite && caller.roleKnown} canWrite={caller.canWrite} />
      </div>
      {dialog === 'move' ? <MoveIssueDialog onClose={() => setDialog(null)} issue={issue} issueRef={issueRef} isAdmin={caller.isAdmin} /> : null}
      {dialog === 'clone' ? <CloneIssueDialog onClose={() => setDialog(null)} issue={issue} issueRef={issueRef} isAdmin={caller.isAdmin} /> : null}
      {dialog === 'delete' ? <DeleteIssueDialog onClose={() => setDialog(null)} issue={issue} issueRef={issueRef} /> : null}
    </article>
  );
}
