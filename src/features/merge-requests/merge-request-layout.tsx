import { useId, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { draftTitle, mergeRequestsQueries, readyTitle, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { useProjectAuthorCaller } from '../../components/use-project-caller.ts';
import { updateRefusal } from './merge-request-overview-access.ts';
import { useUpdateMergeRequest } from './merge-request-overview-mutations.ts';

const STATE_LABELS: Record<string, string> = { opened: 'Open', merged: 'Merged', closed: 'Closed', locked: 'Locked' };

/** The tabs of one merge request; each is a route under `/projects/$projectId/merge-requests/$mergeRequestIid`. */
const TABS = [
  { label: 'Overview', to: '/projects/$projectId/merge-requests/$mergeRequestIid' },
  { label: 'Commits', to: '/projects/$projectId/merge-requests/$mergeRequestIid/commits' },
  { label: 'Changes', to: '/projects/$projectId/merge-requests/$mergeRequestIid/changes', count: (request: MergeRequestDetail) => request.changes_count },
] as const;

/** One merge request: its title, state and branches above the tab in view. */
export function MergeRequestLayout({ projectId, iid, children }: { projectId: number; iid: number; children: ReactNode }) {
  const connection = useConnection();
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const headingId = useId();
  const params = { projectId: String(projectId), mergeRequestIid: String(iid) };
  return (
    <article className="screen merge-request" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{request.title}</h1>
        <MergeRequestSummary request={request} />
        <MergeRequestActions request={request} />
      </header>
      <nav aria-label="Merge request" className="tabs">
        {TABS.map((tab) => (
          <Link key={tab.label} to={tab.to} params={params} activeOptions={{ exact: true, includeSearch: false }} className="tabs__tab">
            {tab.label}
            <TabCount count={'count' in tab ? tab.count(request) : null} />
          </Link>
        ))}
      </nav>
      {children}
    </article>
  );
}

/** A tab's number (`changes_count` is a string: the platform caps it as "1000+"). */
function TabCount({ count }: { count: string | null | undefined }) {
  return count ? <span className="badge tabs__count">{count}</span> : null;
}

function MergeRequestSummary({ request }: { request: MergeRequestDetail }) {
  return (
    <p>
      <span className={request.state === 'opened' ? 'badge badge--role' : 'badge'}>{STATE_LABELS[request.state] ?? request.state}</span>{' '}
      {request.draft ? <span className="badge badge--warning">Draft</span> : null} <span className="muted">{request.references?.full ?? `!${request.iid}`}</span> · opened{' '}
      <time dateTime={request.created_at} title={formatDateTime(request.created_at)}>
        {formatRelative(request.created_at)}
      </time>{' '}
      by {request.author?.name ?? 'someone'} · wants to merge <code><BreakableText text={request.source_branch} /></code> into{' '}
      <code><BreakableText text={request.target_branch} /></code>
    </p>
  );
}

/**
 * Close or reopen, mark as draft or ready: for the author and Developers and up (the platform's
 * update_merge_request); a merged request stays as it is. Draft is read from the title's prefix.
 */
function MergeRequestActions({ request }: { request: MergeRequestDetail }) {
  const caller = useProjectAuthorCaller(request.project_id);
  const update = useUpdateMergeRequest({ projectId: request.project_id, iid: request.iid });
  const refusal = updateRefusal(caller, request.author?.id);
  if (request.state === 'merged' || request.state === 'locked') return null;
  if (refusal) {
    return caller.canWrite && caller.roleKnown ? (
      <p className="muted" role="note">
        {refusal}
      </p>
    ) : null;
  }
  const open = request.state === 'opened';
  return (
    <>
      <span className="row-actions">
        {open ? (
          <button type="button" className="button" disabled={update.isPending} onClick={() => update.mutate({ title: request.draft ? readyTitle(request.title) : draftTitle(request.title) })}>
            {request.draft ? 'Mark as ready' : 'Mark as draft'}
          </button>
        ) : null}
        <button type="button" className="button" disabled={update.isPending} onClick={() => update.mutate({ state_event: open ? 'close' : 'reopen' })}>
          {open ? 'Close merge request' : 'Reopen merge request'}
        </button>
      </span>
      <WriteOutcome write={update} />
    </>
  );
}
