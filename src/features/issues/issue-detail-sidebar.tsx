import { useId, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { labelNames, type Issue } from '../../api/issues.ts';
import { labelsQueries, type LabelBasic } from '../../api/labels.ts';
import { milestonesQueries } from '../../api/milestones.ts';
import { useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { ChipsAndSearch, emptyIfSent, ProjectMemberPicker, SidebarSection } from '../../components/sidebar-section.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { useSetSubscription, useTrackTime, useUpdateIssue, type IssueRef } from './issue-detail-mutations.ts';

function Assignees({ issue, at: ref, editable }: { issue: Issue; at: IssueRef; editable: boolean }) {
  const update = useUpdateIssue(ref);
  return (
    <ProjectMemberPicker
      projectId={ref.projectId}
      title="Assignees"
      people={issue.assignees}
      editable={editable}
      write={update}
      onChange={(ids, done) => update.mutate({ assignee_ids: ids }, { onSuccess: done })}
      searchLabel="Find a project member to assign"
      candidatesLabel="Members to assign"
      removeLabel={(user) => `Unassign ${user.name}`}
      pickLabel={(member) => `Assign ${member.name} (@${member.username})`}
    />
  );
}

function labelOf(issue: Issue, name: string): LabelBasic | undefined {
  return issue.labels.find((label): label is LabelBasic => typeof label !== 'string' && label.name === name);
}

function Labels({ issue, at: ref, editable }: { issue: Issue; at: IssueRef; editable: boolean }) {
  const connection = useConnection();
  const update = useUpdateIssue(ref);
  const [search, setSearch] = useState('');
  const labels = useQuery({
    ...labelsQueries.list(connection, { project: ref.projectId }, { search: search || undefined, include_ancestor_groups: true, page: 1, per_page: 20 }),
    enabled: editable && search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
  const names = labelNames(issue);
  return (
    <ChipsAndSearch
      title="Labels"
      chips={names.map((name) => {
        const color = labelOf(issue, name)?.color;
        return { key: name, text: name, removeLabel: `Remove label ${name}`, onRemove: () => update.mutate({ remove_labels: [name] }), style: color ? { borderColor: color } : undefined };
      })}
      editable={editable}
      pending={update.isPending}
      search={search}
      onSearch={setSearch}
      searchLabel="Find a label to add"
      placeholder="Label name"
      candidatesLabel="Labels to add"
      candidates={labels.data?.items
        .filter((label) => !names.includes(label.name))
        .map((label) => ({ key: String(label.id), label: `Add label ${label.name}`, onPick: () => update.mutate({ add_labels: [label.name] }, { onSuccess: emptyIfSent(setSearch, search) }) }))}
      searchError={labels.error}
      noMatch={`No other label matches “${search}”.`}
      outcome={<WriteOutcome write={update} />}
    />
  );
}

function MilestonePicker({ issue, at: ref, editable }: { issue: Issue; at: IssueRef; editable: boolean }) {
  const connection = useConnection();
  const update = useUpdateIssue(ref);
  const id = useId();
  const milestones = useQuery({ ...milestonesQueries.list(connection, { project: ref.projectId }, { state: 'active', include_ancestors: true, page: 1, per_page: 100 }), enabled: editable });
  const current = issue.milestone;
  const options = milestones.data?.items ?? [];
  return (
    <SidebarSection title="Milestone">
      {!editable ? (
        <p>{current ? current.title : <span className="muted">None</span>}</p>
      ) : (
        <div className="field">
          <label className="sr-only" htmlFor={id}>
            Milestone
          </label>
          <select
            id={id}
            className="input"
            value={current ? String(current.id) : ''}
            disabled={update.isPending || milestones.isPending}
            onChange={(event) => update.mutate({ milestone_id: event.target.value ? Number(event.target.value) : 0 })}
          >
            <option value="">No milestone</option>
            {current && !options.some((milestone) => milestone.id === current.id) ? <option value={String(current.id)}>{current.title}</option> : null}
            {options.map((milestone) => (
              <option key={milestone.id} value={String(milestone.id)}>
                {milestone.title}
                {milestone.due_date ? ` (due ${milestone.due_date})` : ''}
              </option>
            ))}
          </select>
          {milestones.error ? <p role="alert">{errorText(milestones.error)}</p> : null}
          <WriteOutcome write={update} />
        </div>
      )}
    </SidebarSection>
  );
}

function DueDate({ issue, at: ref, editable }: { issue: Issue; at: IssueRef; editable: boolean }) {
  const update = useUpdateIssue(ref);
  const id = useId();
  const [draft, setDraft] = useState(issue.due_date ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ due_date: draft || null });
  };
  return (
    <SidebarSection title="Due date">
      {!editable ? (
        <p>{issue.due_date ?? <span className="muted">None</span>}</p>
      ) : (
        <form onSubmit={submit}>
          <div className="field">
            <label className="sr-only" htmlFor={id}>
              Due date
            </label>
            <input id={id} className="input" type="date" value={draft} onChange={(event) => setDraft(event.target.value)} />
          </div>
          <button type="submit" className="button" disabled={update.isPending || draft === (issue.due_date ?? '')}>
            Save due date
          </button>
          {issue.due_date ? (
            <button type="button" className="button" disabled={update.isPending} onClick={() => (setDraft(''), update.mutate({ due_date: null }))}>
              Remove due date
            </button>
          ) : null}
          <WriteOutcome write={update} />
        </form>
      )}
    </SidebarSection>
  );
}

function Flag({ issue, at: ref, editable, field, label, on, off }: { issue: Issue; at: IssueRef; editable: boolean; field: 'confidential' | 'discussion_locked'; label: string; on: string; off: string }) {
  const update = useUpdateIssue(ref);
  // while the change is on its way, the box shows what was asked for
  const asked = update.isPending ? update.variables?.[field] : undefined;
  const value = asked ?? issue[field];
  return (
    <SidebarSection title={label}>
      {editable ? (
        <label className="checkbox">
          <input type="checkbox" checked={value} disabled={update.isPending} onChange={(event) => update.mutate({ [field]: event.target.checked })} />
          {label}
        </label>
      ) : null}
      <p className="muted">{value ? on : off}</p>
      <WriteOutcome write={update} />
    </SidebarSection>
  );
}

function TimeTracking({ issue, at: ref, editable }: { issue: Issue; at: IssueRef; editable: boolean }) {
  const track = useTrackTime(ref);
  const estimateId = useId();
  const spendId = useId();
  const [estimate, setEstimate] = useState('');
  const [spend, setSpend] = useState('');
  const stats = issue.time_stats;
  const hint = 'Like 1w 2d 3h 30m; a minus takes time back (-1h).';
  return (
    <SidebarSection title="Time tracking">
      <dl className="details">
        <dt>Estimate</dt>
        <dd>{stats?.human_time_estimate || <span className="muted">None</span>}</dd>
        <dt>Spent</dt>
        <dd>{stats?.human_total_time_spent || <span className="muted">None</span>}</dd>
      </dl>
      {editable ? (
        <>
          <form onSubmit={(event) => (event.preventDefault(), track.mutate({ estimate: estimate.trim() }, { onSuccess: emptyIfSent(setEstimate, estimate) }))}>
            <div className="field">
              <label className="field__label" htmlFor={estimateId}>
                Estimate
              </label>
              <input id={estimateId} className="input input--narrow" value={estimate} placeholder="3h 30m" onChange={(event) => setEstimate(event.target.value)} />
            </div>
            <button type="submit" className="button" disabled={track.isPending || !estimate.trim()}>
              Set estimate
            </button>
            <button type="button" className="button" disabled={track.isPending || !stats?.time_estimate} onClick={() => track.mutate({ resetEstimate: true })}>
              Reset estimate
            </button>
          </form>
          <form onSubmit={(event) => (event.preventDefault(), track.mutate({ spend: spend.trim() }, { onSuccess: emptyIfSent(setSpend, spend) }))}>
            <div className="field">
              <label className="field__label" htmlFor={spendId}>
                Time spent
              </label>
              <input id={spendId} className="input input--narrow" value={spend} placeholder="1h" aria-describedby={`${spendId}-hint`} onChange={(event) => setSpend(event.target.value)} />
              <p className="field__hint" id={`${spendId}-hint`}>
                {hint}
              </p>
            </div>
            <button type="submit" className="button" disabled={track.isPending || !spend.trim()}>
              Add time spent
            </button>
            <button type="button" className="button" disabled={track.isPending || !stats?.total_time_spent} onClick={() => track.mutate({ resetSpent: true })}>
              Reset time spent
            </button>
          </form>
          <WriteOutcome write={track} />
        </>
      ) : null}
    </SidebarSection>
  );
}

function Subscription({ issue, at: ref, canWrite }: { issue: Issue; at: IssueRef; canWrite: boolean }) {
  const subscription = useSetSubscription(ref);
  return (
    <SidebarSection title="Notifications">
      {canWrite ? (
        <label className="checkbox">
          <input type="checkbox" checked={subscription.isPending && subscription.variables ? subscription.variables.subscribed : issue.subscribed} disabled={subscription.isPending} onChange={(event) => subscription.mutate({ subscribed: event.target.checked })} />
          Notify me about this issue
        </label>
      ) : null}
      <p className="muted">{issue.subscribed ? 'You are subscribed.' : 'You are not subscribed.'}</p>
      <WriteOutcome write={subscription} />
    </SidebarSection>
  );
}

/** The issue's fields, each editable in place when the caller may. */
export function IssueSidebar(props: { issue: Issue; issueRef: IssueRef; editRefusal: string | null; canWrite: boolean; /** The refusal is final (the role is known). */ announce: boolean }) {
  const { issue, issueRef, editRefusal, canWrite, announce } = props;
  const editable = editRefusal === null;
  return (
    <aside className="issue-sidebar" aria-label="Issue details">
      {editRefusal && announce ? (
        <p className="notice" role="note">
          {editRefusal}
        </p>
      ) : null}
      <Assignees issue={issue} at={issueRef} editable={editable} />
      <Labels issue={issue} at={issueRef} editable={editable} />
      <MilestonePicker issue={issue} at={issueRef} editable={editable} />
      <DueDate key={issue.due_date ?? ''} issue={issue} at={issueRef} editable={editable} />
      <Flag issue={issue} at={issueRef} editable={editable} field="confidential" label="Confidential" on="Only project members from Reporter up, the author and assignees see this issue." off="Everyone who can see the project sees this issue." />
      <Flag issue={issue} at={issueRef} editable={editable} field="discussion_locked" label="Discussion locked" on="Only project members can comment." off="Anyone who can see the issue can comment." />
      <TimeTracking issue={issue} at={issueRef} editable={editable} />
      <Subscription issue={issue} at={issueRef} canWrite={canWrite} />
    </aside>
  );
}
