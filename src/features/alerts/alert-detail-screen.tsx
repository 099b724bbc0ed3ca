import './alerts.css';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ALERT_STATUSES, ALERT_STATUS_LABELS, alertsQueries, type AlertDetail, type AlertStatus } from '../../api/alerts.ts';
import { useConnection } from '../../api/react.ts';
import { usersQueries } from '../../api/users.ts';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { ProjectMemberPicker } from '../../components/sidebar-section.tsx';
import { RoutePending } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { SeverityBadge, statusLabel } from './alert-cells.tsx';
import { useCreateAlertIssue, useSetAlertAssignees, useUpdateAlertStatus } from './mutations.ts';
import { useProjectPath } from './use-project-path.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

const STATUS_CHOICES = ALERT_STATUSES.map((value) => ({ value, label: ALERT_STATUS_LABELS[value] }));
/** The platform's alert policies: Developers and above read and update alerts (status, assignees, issue). */

/** The number of a user's global id (`gid://gitlab/User/12`). */
function userNumber(gid: string): number {
  return Number(gid.slice(gid.lastIndexOf('/') + 1));
}

/** The payload as pretty JSON text; it is shown as text, never as markup. */
function prettyPayload(details: unknown): string {
  if (details === null || details === undefined) return '';
  return JSON.stringify(details, null, 2);
}

export function AlertDetailScreen({ projectId, iid }: { projectId: number; iid: number }) {
  const { fullPath, error } = useProjectPath(projectId);
  const connection = useConnection();
  const alert = useQuery({ ...alertsQueries.detail(connection, fullPath ?? '', iid), enabled: Boolean(fullPath) });
  return (
    <section className="screen" aria-labelledby="alert-heading">
      <p>
        <RouteLink to="/projects/$projectId/alerts/" params={{ projectId }}>
          All alerts
        </RouteLink>
      </p>
      {alert.data && fullPath ? (
        <AlertBody projectId={projectId} fullPath={fullPath} alert={alert.data} />
      ) : error || alert.error ? (
        <>
          <h1 id="alert-heading">Alert {iid}</h1>
          <ErrorPanel error={error ?? alert.error} onRetry={() => void alert.refetch()} />
        </>
      ) : (
        <RoutePending />
      )}
    </section>
  );
}

function AlertBody({ projectId, fullPath, alert }: { projectId: number; fullPath: string; alert: AlertDetail }) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const editable = !pending && caller.canWrite && (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER);
  const ref = { projectPath: fullPath, iid: alert.iid };
  const payload = prettyPayload(alert.details);
  return (
    <>
      <header className="screen__header">
        <h1 id="alert-heading">{alert.title || `Alert ${alert.iid}`}</h1>
      </header>
      <RoleUnread failure={failure} />
      <dl className="details">
        <dt>Severity</dt>
        <dd>
          <SeverityBadge severity={alert.severity} />
        </dd>
        <dt>Status</dt>
        <dd>{statusLabel(alert.status)}</dd>
        <dt>Started</dt>
        <dd>
          <Time value={alert.startedAt} fallback="unknown" />
        </dd>
        <dt>Ended</dt>
        <dd>
          <Time value={alert.endedAt} fallback="not yet" />
        </dd>
        <dt>Events</dt>
        <dd>{formatCount(alert.eventCount)}</dd>
        <dt>Service</dt>
        <dd>{alert.service || <span className="muted">none</span>}</dd>
        <dt>Monitoring tool</dt>
        <dd>{alert.monitoringTool || <span className="muted">none</span>}</dd>
        <dt>Hosts</dt>
        <dd>{alert.hosts.length ? alert.hosts.join(', ') : <span className="muted">none</span>}</dd>
        {alert.runbook ? (
          <>
            <dt>Runbook</dt>
            <dd>{alert.runbook}</dd>
          </>
        ) : null}
      </dl>
      {alert.description ? (
        <section aria-labelledby="alert-description">
          <h2 id="alert-description">Description</h2>
          <p className="alert-text">{alert.description}</p>
        </section>
      ) : null}
      <StatusControl alertRef={ref} status={alert.status} editable={editable} />
      <Assignees projectId={projectId} alertRef={ref} alert={alert} editable={editable} />
      <IssueControl projectId={projectId} alertRef={ref} alert={alert} editable={editable} />
      <section aria-labelledby="alert-payload">
        <h2 id="alert-payload">Payload</h2>
        {payload ? (
          <pre className="alert-payload" tabIndex={0} role="region" aria-label="Alert payload">
            {payload}
          </pre>
        ) : (
          <p className="muted">The platform kept no payload for this alert.</p>
        )}
      </section>
    </>
  );
}

type AlertRef = { projectPath: string; iid: string };

function StatusControl({ alertRef, status, editable }: { alertRef: AlertRef; status: string | null | undefined; editable: boolean }) {
  const update = useUpdateAlertStatus();
  const current = (ALERT_STATUSES as readonly string[]).includes(status ?? '') ? (status as AlertStatus) : 'TRIGGERED';
  return (
    <section aria-labelledby="alert-status">
      <h2 id="alert-status">Status</h2>
      {editable ? (
        <ChoiceSelect label="Change status" value={current} options={STATUS_CHOICES} onChange={(next) => (next === current ? undefined : update.mutate({ ...alertRef, status: next }))} />
      ) : (
        <p className="muted">Developers and above change an alert's status.</p>
      )}
      <WriteOutcome write={update} />
    </section>
  );
}

function Assignees({ projectId, alertRef, alert, editable }: { projectId: number; alertRef: AlertRef; alert: AlertDetail; editable: boolean }) {
  const set = useSetAlertAssignees();
  const queryClient = useQueryClient();
  const connection = useConnection();
  const [lookupError, setLookupError] = useState<string | null>(null);
  const people = alert.assignees.map((user) => ({ id: userNumber(user.id), name: user.name ?? user.username, username: user.username }));
  const change = async (ids: number[], done: () => void) => {
    setLookupError(null);
    try {
      // the mutation takes usernames; a newly picked member is looked up by id
      const usernames = await Promise.all(
        ids.map(async (id) => people.find((person) => person.id === id)?.username ?? (await queryClient.fetchQuery(usersQueries.detail(connection, id))).username),
      );
      set.mutate({ ...alertRef, assigneeUsernames: usernames }, { onSuccess: done });
    } catch (error) {
      setLookupError(errorText(error));
    }
  };
  return (
    <>
      <ProjectMemberPicker
        projectId={projectId}
        title="Assignees"
        people={people}
        editable={editable}
        write={set}
        onChange={(ids, done) => void change(ids, done)}
        searchLabel="Find a project member to assign"
        candidatesLabel="Members to assign"
        removeLabel={(user) => `Unassign ${user.name}`}
        pickLabel={(member) => `Assign ${member.name} (@${member.username})`}
      />
      {lookupError ? (
        <p className="field__error" role="alert">
          {lookupError}
        </p>
      ) : null}
    </>
  );
}

function IssueControl({ projectId, alertRef, alert, editable }: { projectId: number; alertRef: AlertRef; alert: AlertDetail; editable: boolean }) {
  const create = useCreateAlertIssue();
  const issueIid = alert.issue?.iid ?? create.data?.iid;
  return (
    <section aria-labelledby="alert-issue">
      <h2 id="alert-issue">Issue</h2>
      {issueIid ? (
        <RouteLink to="/projects/$projectId/issues/$issueIid" params={{ projectId, issueIid }}>
          {alert.issue?.title ? `Issue #${issueIid}: ${alert.issue.title}` : `Issue #${issueIid}`}
        </RouteLink>
      ) : editable ? (
        <button type="button" className="button" disabled={create.isPending} onClick={() => create.mutate(alertRef)}>
          Create issue
        </button>
      ) : (
        <p className="muted">No issue yet. Developers and above create one from the alert.</p>
      )}
      <WriteOutcome write={create} />
    </section>
  );
}
