import { useQuery } from '@tanstack/react-query';
import { mergeRequestsQueries, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { LabelChip } from '../../components/label-chip.tsx';
import { ProjectMemberPicker, SidebarSection } from '../../components/sidebar-section.tsx';
import { useUpdateMergeRequest } from './merge-request-overview-mutations.ts';

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

function People({ title, people }: { title: string; people: MergeRequestDetail['assignees'] }) {
  return (
    <SidebarSection title={title}>
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
    </SidebarSection>
  );
}

function ReviewState({ state }: { state: string | undefined }) {
  if (!state) return null;
  return (
    <>
      {' '}
      · <span className={state === 'approved' ? 'badge badge--role' : state === 'requested_changes' ? 'badge badge--warning' : 'badge'}>{reviewStateText(state)}</span>
    </>
  );
}

/** Who is asked for a review, with their review state; those who may change the request ask project members or take the request back. */
function Reviewers({ request, editable }: { request: MergeRequestDetail; editable: boolean }) {
  const connection = useConnection();
  const reviewers = useQuery(mergeRequestsQueries.reviewers(connection, request.project_id, request.iid));
  const update = useUpdateMergeRequest({ projectId: request.project_id, iid: request.iid });
  const states = new Map(reviewers.data?.map((reviewer) => [reviewer.user.id, reviewer.state]));
  return (
    <>
      <ProjectMemberPicker
        projectId={request.project_id}
        title="Reviewers"
        people={request.reviewers}
        detail={(user) => <ReviewState state={states.get(user.id)} />}
        editable={editable}
        write={update}
        // `0` asks for nobody: an empty list is not sent at all
        onChange={(ids, done) => update.mutate({ reviewer_ids: ids.length ? ids : [0] }, { onSuccess: done })}
        searchLabel="Find a project member to ask for a review"
        candidatesLabel="Members to ask for a review"
        removeLabel={(user) => `Remove reviewer ${user.name}`}
        pickLabel={(member) => `Request a review from ${member.name} (@${member.username})`}
      />
      {reviewers.isError ? <p role="alert">The review states could not be read ({errorText(reviewers.error)}).</p> : null}
    </>
  );
}

/** Who reviews and who is assigned, labels, milestone and branches. */
export function MergeRequestSidebar({ request, editable }: { request: MergeRequestDetail; editable: boolean }) {
  return (
    <aside className="merge-request-sidebar" aria-label="Merge request details">
      <Reviewers request={request} editable={editable && request.state === 'opened'} />
      <People title="Assignees" people={request.assignees} />
      <SidebarSection title="Labels">
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
      </SidebarSection>
      <SidebarSection title="Milestone">
        <p>{request.milestone ? request.milestone.title : <span className="muted">None</span>}</p>
      </SidebarSection>
      <SidebarSection title="Branches">
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
      </SidebarSection>
    </aside>
  );
}
