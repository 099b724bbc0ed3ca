import { useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { approvalsQueries } from '../../api/approvals.ts';
import { ApiError } from '../../api/errors.ts';
import { mergeRequestsQueries, projectMergeSettings, type MergeOptions, type MergeRequestDetail, type ProjectMergeSettings } from '../../api/merge-requests.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { isNewCommits, loadedHead, useMerge, useReloadRequest } from './approval-panel-writes.ts';
import { explainMergeStatus } from './merge-status.ts';

/** The platform's default merge commit message (a project without a merge commit template). */
export function defaultMergeCommitMessage(request: Pick<MergeRequestDetail, 'source_branch' | 'target_branch' | 'title' | 'iid' | 'references'>): string {
  return `Merge branch '${request.source_branch}' into '${request.target_branch}'\n\n${request.title}\n\nSee merge request ${request.references?.full ?? `!${request.iid}`}`;
}

/** `detailed_merge_status` in words with what to do; the merge itself with its options, once it can merge. */
export function MergePanel({ projectId, iid }: { projectId: number; iid: number }) {
  const connection = useConnection();
  const headingId = useId();
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const approvals = useQuery({ ...approvalsQueries.approvals(connection, projectId, iid), enabled: request.detailed_merge_status === 'not_approved' });
  const explained = explainMergeStatus(request.detailed_merge_status, { approvalsLeft: approvals.data?.approvals_left, state: request.state, targetBranch: request.target_branch });
  return (
    <section className="review-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="review-panel__heading">
        Merge
      </h2>
      {request.state === 'merged' ? (
        <MergedResult projectId={projectId} request={request} />
      ) : (
        <>
          <p className={`review-panel__summary review-panel__summary--${explained.tone}`}>
            <strong>{explained.summary}</strong>
            {explained.action ? <> {explained.action}</> : null}
          </p>
          {request.detailed_merge_status === 'mergeable' ? <MergeControls projectId={projectId} request={request} /> : null}
        </>
      )}
    </section>
  );
}

function MergedResult({ projectId, request }: { projectId: number; request: MergeRequestDetail }) {
  const sha = request.merge_commit_sha ?? request.squash_commit_sha;
  return (
    <>
      <p className="review-panel__summary review-panel__summary--ready">
        <strong>Merged</strong>
        {request.merge_user ? ` by ${request.merge_user.name}` : ''}
        {request.merged_at ? (
          <>
            {' '}
            <time dateTime={request.merged_at} title={formatDateTime(request.merged_at)}>
              {formatRelative(request.merged_at)}
            </time>
          </>
        ) : null}{' '}
        into <code>{request.target_branch}</code>.
      </p>
      {sha ? (
        <p>
          Merge commit{' '}
          <Link to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha }} aria-label={`Merge commit ${sha}`}>
            <code>{sha.slice(0, 8)}</code>
          </Link>
          {request.squash_commit_sha && request.merge_commit_sha ? (
            <>
              {' '}
              (squashed changes in{' '}
              <Link
                to="/projects/$projectId/commit/$sha"
                params={{ projectId: String(projectId), sha: request.squash_commit_sha }}
                aria-label={`Squash commit ${request.squash_commit_sha}`}
              >
                <code>{request.squash_commit_sha.slice(0, 8)}</code>
              </Link>
              )
            </>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

/** The squash choice as the project allows it: never, always, or the request's own choice (ticked by default when the project says so). */
function squashChoice(settings: ProjectMergeSettings, request: MergeRequestDetail): { initial: boolean; locked: string | null } {
  switch (settings.squash_option) {
    case 'never':
      return { initial: false, locked: 'The project does not allow squashing.' };
    case 'always':
      return { initial: true, locked: 'The project always squashes commits.' };
    case 'default_on':
      return { initial: true, locked: null };
    default:
      return { initial: request.squash, locked: null };
  }
}

function MergeControls({ projectId, request }: { projectId: number; request: MergeRequestDetail }) {
  const connection = useConnection();
  const session = useActiveSession()?.connection;
  const project = useQuery({ ...projectsQueries.detail(connection, projectId), select: projectMergeSettings });
  if (!request.user?.can_merge || !session?.canWrite) {
    return (
      <p className="muted">
        {session?.canWrite ? `You cannot merge: you are not allowed to merge into '${request.target_branch}'.` : 'You cannot merge with a read-only (read_api) token.'}
      </p>
    );
  }
  // the options start from the project's settings: wait for them rather than change under the user
  if (project.isPending) return null;
  return <MergeForm projectId={projectId} request={request} settings={project.data ?? {}} />;
}

function mergeRefusal(error: Error, request: MergeRequestDetail): string {
  if (!(error instanceof ApiError)) return errorText(error);
  if (error.status === 405)
    return 'The merge request cannot be merged now: something changed since the page was loaded (an approval withdrawn, a thread opened, the target branch moved). Reload to see what stands in the way.';
  if (error.status === 422) return `Not merged: ${error.message}. The branches conflict: resolve the conflicts locally and push.`;
  if (error.status === 401 || error.status === 403) return `Not merged: you are not allowed to merge into '${request.target_branch}'.`;
  return `Not merged: ${error.message}`;
}

function MergeForm({ projectId, request, settings }: { projectId: number; request: MergeRequestDetail; settings: ProjectMergeSettings }) {
  const squashRule = squashChoice(settings, request);
  const [squash, setSquash] = useState(squashRule.initial);
  const [removeSource, setRemoveSource] = useState(request.force_remove_source_branch ?? settings.remove_source_branch_after_merge ?? false);
  const [editMessage, setEditMessage] = useState(false);
  const defaultMessage = defaultMergeCommitMessage(request);
  const [message, setMessage] = useState(defaultMessage);
  const [confirming, setConfirming] = useState(false);
  const merge = useMerge({ projectId, iid: request.iid });
  const reload = useReloadRequest({ projectId, iid: request.iid });
  // the head loaded with the request: a push since answers 409
  const head = loadedHead(request);
  const messageId = useId();
  const squashHintId = useId();

  const effectiveSquash = squashRule.locked ? squashRule.initial : squash;
  const options: MergeOptions = {
    sha: head,
    // sent as shown, locked ones too: the choice on screen is the one made
    squash: effectiveSquash,
    should_remove_source_branch: removeSource,
    merge_commit_message: editMessage && message.trim() && message !== defaultMessage ? message : undefined,
  };
  const [reloading, setReloading] = useState(false);
  // the dialog stays until the new head is in: a Merge pressed sooner would send the old one again
  const onReload = async () => {
    if (reloading) return;
    setReloading(true);
    try {
      await reload();
    } finally {
      setReloading(false);
    }
    merge.reset();
    setConfirming(false);
  };
  const error = merge.status === 'refused' ? merge.error : null;
  return (
    <>
      <form
        className="form review-panel__merge"
        aria-label="Merge options"
        onSubmit={(event) => {
          event.preventDefault();
          merge.reset();
          setConfirming(true);
        }}
      >
        <label className="checkbox">
          <input
            type="checkbox"
            checked={effectiveSquash}
            disabled={Boolean(squashRule.locked)}
            aria-describedby={squashRule.locked ? squashHintId : undefined}
            onChange={(event) => setSquash(event.target.checked)}
          />
          Squash commits into one
        </label>
        {squashRule.locked ? (
          <p className="field__hint" id={squashHintId}>
            {squashRule.locked}
          </p>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={removeSource} onChange={(event) => setRemoveSource(event.target.checked)} />
          Delete source branch <code>{request.source_branch}</code>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={editMessage} onChange={(event) => setEditMessage(event.target.checked)} />
          Edit the merge commit message
        </label>
        {editMessage ? (
          <div className="field">
            <label className="field__label" htmlFor={messageId}>
              Merge commit message
            </label>
            <textarea id={messageId} className="input review-panel__message" rows={6} value={message} onChange={(event) => setMessage(event.target.value)} />
          </div>
        ) : null}
        <div className="review-panel__actions">
          <button type="submit" className="button button--primary" disabled={!head}>
            Merge
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Merge ${request.references?.short ?? `!${request.iid}`}?`}
        description={
          <>
            The changes of <code>{request.source_branch}</code> go into <code>{request.target_branch}</code>
            {effectiveSquash ? ', squashed into one commit' : ''}
            {removeSource ? `, and the branch ${request.source_branch} is deleted` : ''}. A merge cannot be undone, only reverted.
          </>
        }
        confirmLabel="Merge"
        write={merge}
        error={
          error ? (
            <>
              <p>
                {isNewCommits(error)
                  ? 'Not merged: new commits were pushed to the source branch since you loaded it. Reload to review them, then merge again.'
                  : mergeRefusal(error, request)}
              </p>
              {isNewCommits(error) || (error instanceof ApiError && error.status === 405) ? (
                <button type="button" className="button" aria-busy={reloading} disabled={reloading} onClick={() => void onReload()}>
                  Reload
                </button>
              ) : null}
            </>
          ) : undefined
        }
        onConfirm={() => merge.mutate(options, { onSuccess: () => setConfirming(false) })}
      />
    </>
  );
}
