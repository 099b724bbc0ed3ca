import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { mergeRequestsQueries, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { LabelChip } from '../../components/label-chip.tsx';

/** A reviewer's state in words (the platform's `merge_request_reviewers.state`). */
const REVIEW_STATES: Record<string, string> = {
  unreviewed: 'Review requested',
  review_started: 'Reviewing',
  reviewed: 'Reviewed',
  requested_changes: 'Requested changes',
  approved: 'Approved',
  unapproved: 'Approval taken back',
};

export function reviewStateText(state: string): string {
  return REVIEW_STATES[state] ?? state.replace(/_/g, ' ');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    // headings, not named regions: a page of a dozen small landmarks helps nobody navigate
    <div className="merge-request-sidebar__section">
      <h2 className="merge-request-sidebar__heading">{title}</h2>
      {children}
    </div>
  );
}

function People({ title, people }: { title: string; people: MergeRequestDetail['assignees'] }) {
  return (
    <Section title={title}>
      {people.length ? (
        <ul className="link-list" aria-label={title}>
          {people.map((user) => (
            <li key={user.id}>
              {user.name} <span className="muted">@{user.username}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None</p>
      )}
    </Section>
  );
}

function Reviewers({ request }: { request: MergeRequestDetail }) {
  const connection = useConnection();
  const reviewers = useQuery(mergeRequestsQueries.reviewers(connection, request.project_id, request.iid));
  if (reviewers.isError) {
    return (
      <Section title="Reviewers">
        <People title="Reviewers" people={request.reviewers} />
        <p role="alert">The review states could not be read ({errorText(reviewers.error)}).</p>
      </Section>
    );
  }
  // the request lists who reviews at once; their states follow
  const rows = reviewers.data ?? request.reviewers.map((user) => ({ user, state: undefined }));
  return (
    <Section title="Reviewers">
      {rows.length ? (
        <ul className="link-list" aria-label="Reviewers">
          {rows.map(({ user, state }) => (
            <li key={user.id}>
              {user.name} <span className="muted">@{user.username}</span>
              {state ? (
                <>
                  {' '}
                  · <span className={state === 'approved' ? 'badge badge--role' : state === 'requested_changes' ? 'badge badge--warning' : 'badge'}>{reviewStateText(state)}</span>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None</p>
      )}
    </Section>
  );
}

/** Who reviews and who is assigned, labels, milestone and branches. */
export function MergeRequestSidebar({ request }: { request: MergeRequestDetail }) {
  return (
    <aside className="merge-request-sidebar" aria-label="Merge request details">
      <Reviewers request={request} />
      <People title="Assignees" people={request.assignees} />
      <Section title="Labels">
        {request.labels.length ? (
          <ul className="chip-list" aria-label="Labels">
            {request.labels.map((label) => (
              <li key={typeof label === 'string' ? label : label.name}>
                <LabelChip label={label} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">None</p>
        )}
      </Section>
      <Section title="Milestone">
        <p>{request.milestone ? request.milestone.title : <span className="muted">None</span>}</p>
      </Section>
      <Section title="Branches">
        <dl className="details">
          <dt>Source</dt>
          <dd>
            <code>
              <BreakableText text={request.source_branch} />
            </code>
          </dd>
          <dt>Target</dt>
          <dd>
            <code>
              <BreakableText text={request.target_branch} />
            </code>
          </dd>
        </dl>
      </Section>
    </aside>
  );
}
