import { useState } from 'react';
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useActiveSession, useConnection, useInstancePage } from '../../api/react.ts';
import { JOB_STATUSES, RUNNER_ACCESS_LEVELS, runnersQueries, type RunnerDetail, type RunnerJob } from '../../api/runners.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { RefusableButton } from '../../components/refusable-button.tsx';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { Note } from '../../components/note.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { SecretOnce } from '../../components/secret-once.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { Time } from '../../components/time.tsx';
import { useUpdateRunner } from './mutations.ts';
import { runnerAssignRefusal, runnerDeleteRefusal, runnerDetailRefusal, runnerJobsRefusal, runnerUnassignRefusal } from './permissions.ts';
import { RunnerStatus, RunnerVersion, typeLabel } from './runner-badges.tsx';
import { runnerJobsParams, runnerSearchSchema, type RunnerSearch } from './search.ts';
import { majorMinor } from './version-drift.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';
import { useCallerRoles } from '../../components/use-my-access.ts';
import { RoleUnread } from '../../components/role-unread.tsx';

// the forms load after the runner, not before its first paint
const loadDialogs = chunk(() => import('./runner-dialogs.tsx'));
const EditRunnerDialog = lazyPart(loadDialogs, (module) => module.EditRunnerDialog);
const DeleteRunnerDialog = lazyPart(loadDialogs, (module) => module.DeleteRunnerDialog);
const ResetRunnerTokenDialog = lazyPart(loadDialogs, (module) => module.ResetRunnerTokenDialog);
const AssignRunnerDialog = lazyPart(loadDialogs, (module) => module.AssignRunnerDialog);
const UnassignRunnerDialog = lazyPart(loadDialogs, (module) => module.UnassignRunnerDialog);

interface RunnerScreenProps {
  runnerId: number;
  /** Opened from the instance fleet: back and after-delete lead there. */
  fromAdmin: boolean;
  search: RunnerSearch;
}

/** The caller's highest role where the runner belongs: its group (Owner), or any of its projects (Maintainer). */
function useOwnerRole(runner: RunnerDetail, isAdmin: boolean) {
  const scopes = runner.runner_type === 'group_type' ? runner.groups.slice(0, 1).map((group) => ({ group: group.id })) : runner.runner_type === 'project_type' ? runner.projects.map((project) => ({ project: project.id })) : [];
  const { roles, known, failure } = useCallerRoles(scopes, isAdmin);
  return { role: Math.max(0, ...roles), roles, known, failure };
}

export function RunnerScreen({ runnerId, fromAdmin, search }: RunnerScreenProps) {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const notify = useNotify();
  const navigate = useNavigate();
  const runner = useSuspenseQuery(runnersQueries.detail(connection, runnerId)).data;
  const isAdmin = Boolean(me?.isAdmin);
  const owner = useOwnerRole(runner, isAdmin);
  const ownerRole = owner.role;
  const refusal = runnerDetailRefusal({ isAdmin, canWrite: Boolean(me?.canWrite), scopes: me?.scopes, role: 0, ownerRole }, runner);
  const jobsRefusal = runnerJobsRefusal({ isAdmin, ownerRole }, runner);
  const canChange = refusal === null;
  const deleteRefused = runnerDeleteRefusal({ isAdmin }, runner);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [resetting, setResetting] = useState(false);
  // the one copy of the new token, until its dialog closes
  const [secret, setSecret] = useState<string | null>(null);
  const update = useUpdateRunner();
  usePreloadWhenIdle(loadDialogs, canChange);

  const title = `Runner #${runner.id}`;
  const reference = majorMinor(me?.version);
  const afterDelete = () => {
    notify(`Deleted runner #${runner.id}.`);
    if (fromAdmin) void navigate({ to: '/admin/runners' });
    else if (runner.groups[0]) void navigate({ to: '/groups/$groupId/runners', params: { groupId: String(runner.groups[0].id) } });
    else if (runner.projects[0]) void navigate({ to: '/projects/$projectId/runners', params: { projectId: String(runner.projects[0].id) } });
    else void navigate({ to: '/' });
  };
  const togglePaused = () =>
    update.mutate(
      { runnerId: runner.id, body: { paused: !runner.paused } },
      { onSuccess: (next) => notify(next.paused ? `Paused runner #${runner.id}.` : `Resumed runner #${runner.id}.`) },
    );
  return (
    <section className="screen" aria-labelledby="runner-heading">
      <header className="screen__header">
        <div>
          <h1 id="runner-heading">{title}</h1>
          <p className="muted">{runner.description || runner.name || 'No description'}</p>
        </div>
        {canChange ? (
          <div className="row-actions">
            <button type="button" className="button" disabled={update.isPending} aria-busy={update.isPending || undefined} onClick={togglePaused}>
              {runner.paused ? 'Resume runner' : 'Pause runner'}
            </button>
            <button type="button" className="button button--primary" onClick={() => setEditing(true)}>
              Edit settings
            </button>
            <button type="button" className="button" onClick={() => setResetting(true)}>
              Reset token
            </button>
            <RefusableButton refusal={deleteRefused} className="button button--danger-quiet" onClick={() => setDeleting(true)}>
              Delete runner
            </RefusableButton>
          </div>
        ) : null}
      </header>
      <RoleUnread failure={owner.failure} withheld="its jobs and changes are not offered" />
      <Note>{owner.known ? refusal : null}</Note>
      {update.error ? (
        <div className="form-error" role="alert">
          {errorText(update.error)}
        </div>
      ) : null}
      <UncertainWrite write={update} />
      <div className="home__columns">
        <section aria-labelledby="runner-status-heading">
          <h2 id="runner-status-heading">Status</h2>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <RunnerStatus runner={runner} />
            </dd>
            <dt>Type</dt>
            <dd>{typeLabel(runner.runner_type)}</dd>
            <dt>Last contact</dt>
            <dd><Time value={runner.contacted_at} relative fallback="Never" /></dd>
            <dt>Jobs</dt>
            <dd>{runner.job_execution_status === 'active' ? 'Running a job' : 'Idle'}</dd>
            <dt>Created</dt>
            <dd>
              <Time value={runner.created_at} />
              {runner.created_by ? ` by @${runner.created_by.username}` : ''}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="runner-version-heading">
          <h2 id="runner-version-heading">Version</h2>
          <dl className="details">
            <dt>Version</dt>
            <dd>
              <RunnerVersion version={runner.version} reference={reference} />
            </dd>
            <dt>Revision</dt>
            <dd>{runner.revision || '—'}</dd>
            <dt>Platform</dt>
            <dd>{[runner.platform, runner.architecture].filter(Boolean).join(' / ') || '—'}</dd>
          </dl>
        </section>
        <section aria-labelledby="runner-settings-heading">
          <h2 id="runner-settings-heading">Settings</h2>
          <dl className="details">
            <dt>Tags</dt>
            <dd>{runner.tag_list.length ? runner.tag_list.join(', ') : 'None'}</dd>
            <dt>Runs untagged jobs</dt>
            <dd>{runner.run_untagged ? 'Yes' : 'No'}</dd>
            <dt>Locked to its projects</dt>
            <dd>{runner.locked ? 'Yes' : 'No'}</dd>
            <dt>Protected refs only</dt>
            <dd>{RUNNER_ACCESS_LEVELS.find((level) => level.value === runner.access_level)?.label ?? runner.access_level ?? '—'}</dd>
            <dt>Maximum job timeout</dt>
            <dd>{runner.maximum_timeout ? `${runner.maximum_timeout} seconds` : 'None (the project’s own)'}</dd>
            <dt>Maintenance note</dt>
            <dd style={{ whiteSpace: 'pre-wrap' }}>{runner.maintenance_note || (canChange ? 'None' : 'Shown to those who can edit the runner')}</dd>
          </dl>
        </section>
      </div>
      <RunnerOwners runner={runner} isAdmin={isAdmin} canWrite={Boolean(me?.canWrite)} ownerRole={ownerRole} projectRoles={owner.roles} roleKnown={owner.known} />
      {!owner.known ? null : jobsRefusal ? (
        <section aria-labelledby="runner-jobs-heading">
          <h2 id="runner-jobs-heading">Jobs</h2>
          <Note>{jobsRefusal}</Note>
        </section>
      ) : (
        <RunnerJobs runnerId={runner.id} search={search} />
      )}
      {canChange ? (
        <>
          {/* keyed by the runner: another runner's screen (the same route) gets a fresh form */}
          {editing ? <EditRunnerDialog key={runner.id} runner={runner} onClose={() => setEditing(false)} onSaved={() => notify(`Saved runner #${runner.id}.`)} /> : null}
          {deleting ? <DeleteRunnerDialog runner={runner} onClose={() => setDeleting(false)} onDeleted={afterDelete} /> : null}
          {resetting ? <ResetRunnerTokenDialog runner={runner} onClose={() => setResetting(false)} onReset={(token) => setSecret(token)} /> : null}
        </>
      ) : null}
      <SecretOnce secret={secret} title={`New authentication token of runner #${runner.id}`} onDone={() => setSecret(null)} />
    </section>
  );
}

interface RunnerOwnersProps {
  runner: RunnerDetail;
  isAdmin: boolean;
  canWrite: boolean;
  /** The caller's highest role among the runner's owners, and (project runners) their role in each project, in order. */
  ownerRole: number;
  projectRoles: readonly number[];
  roleKnown: boolean;
}

/** The runner's group or projects; a project runner's owners assign it to more projects and unassign it from them. */
function RunnerOwners({ runner, isAdmin, canWrite, ownerRole, projectRoles, roleKnown }: RunnerOwnersProps) {
  const notify = useNotify();
  const [assigning, setAssigning] = useState(false);
  const [unassigning, setUnassigning] = useState<RunnerDetail['projects'][number] | null>(null);
  const assignable = roleKnown && runner.runner_type === 'project_type' && runnerAssignRefusal({ isAdmin, canWrite, ownerRole }, runner) === null;
  const mayUnassign = (index: number) => roleKnown && runnerUnassignRefusal({ isAdmin, canWrite, roleInProject: projectRoles[index] ?? 0 }, runner, index) === null;
  return (
    <section aria-labelledby="runner-owners-heading">
      <h2 id="runner-owners-heading">Groups and projects</h2>
      {runner.groups.length === 0 && runner.projects.length === 0 ? (
        <p className="muted">{runner.runner_type === 'instance_type' ? 'An instance runner: every project may use it.' : 'None that you can see.'}</p>
      ) : (
        <ul className="link-list" aria-label="Runner owners">
          {runner.groups.map((group) => (
            <li key={`g${group.id}`}>
              Group <Link to="/groups/$groupId/runners" params={{ groupId: String(group.id) }}>{group.name}</Link>
            </li>
          ))}
          {runner.projects.map((project, index) => (
            <li key={`p${project.id}`}>
              Project <Link to="/projects/$projectId/runners" params={{ projectId: String(project.id) }}>{project.name_with_namespace}</Link>
              {mayUnassign(index) ? (
                <>
                  {' '}
                  <button type="button" className="button button--danger-quiet" aria-label={`Unassign from ${project.name_with_namespace}`} onClick={() => setUnassigning(project)}>
                    Unassign
                  </button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {assignable ? (
        <p>
          <button type="button" className="button" onClick={() => setAssigning(true)}>
            Assign to a project…
          </button>
        </p>
      ) : null}
      {assigning ? <AssignRunnerDialog runner={runner} isAdmin={isAdmin} onClose={() => setAssigning(false)} onAssigned={(name) => notify(`Runner #${runner.id} now serves ${name}.`)} /> : null}
      {unassigning ? (
        <UnassignRunnerDialog runner={runner} project={unassigning} onClose={() => setUnassigning(null)} onUnassigned={() => notify(`Runner #${runner.id} no longer serves ${unassigning.name_with_namespace}.`)} />
      ) : null}
    </section>
  );
}

/** The job's name, linked to its page on the instance when the instance has one. */
function JobName({ job }: { job: RunnerJob }) {
  const url = useInstancePage(job.web_url);
  return url ? <a href={url}>#{job.id} {job.name}</a> : <span>#{job.id} {job.name}</span>;
}

const jobColumns: ColumnDef<RunnerJob>[] = [
  {
    id: 'job',
    header: 'Job',
    cell: ({ row: { original: job } }) => <JobName job={job} />,
  },
  { id: 'status', header: 'Status', cell: ({ row: { original: job } }) => <span className="badge">{job.status}</span> },
  { id: 'project', header: 'Project', cell: ({ row: { original: job } }) => job.project.name_with_namespace },
  { id: 'ref', header: 'Ref', cell: ({ row: { original: job } }) => job.ref ?? '' },
  { id: 'duration', header: 'Duration', cell: ({ row: { original: job } }) => (job.duration === null || job.duration === undefined ? '—' : `${Math.round(job.duration)} s`) },
  { id: 'created', header: 'Created', cell: ({ row: { original: job } }) => <Time value={job.created_at} relative /> },
];

/** The runner's jobs, filters in the URL; non-administrators see those of projects where they are Reporter or more. */
function RunnerJobs({ runnerId, search }: { runnerId: number; search: RunnerSearch }) {
  const connection = useConnection();
  const jobs = useQuery({ ...runnersQueries.jobs(connection, runnerId, runnerJobsParams(search)), placeholderData: keepPreviousData });
  const wanted = useRequestedSearch(runnerSearchSchema, search);
  const setSearch = useSetSearch<RunnerSearch>();
  return (
    <section aria-labelledby="runner-jobs-heading">
      <h2 id="runner-jobs-heading">Jobs</h2>
      <div className="filter-bar" role="search" aria-label="Filter jobs">
        <label className="inline-field">
          <span>Job status</span>
          <select className="input" value={wanted.status ?? ''} onChange={(event) => setSearch({ status: (event.target.value || undefined) as RunnerSearch['status'] })}>
            <option value="">Any</option>
            {JOB_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Order</span>
          <select className="input" value={wanted.sort} onChange={(event) => setSearch({ sort: event.target.value as RunnerSearch['sort'] })}>
            <option value="desc">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as RunnerSearch['per_page'] })} />
      </div>
      {jobs.isPending ? (
        <p role="status">Loading jobs…</p>
      ) : jobs.isError ? (
        <ErrorPanel error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : jobs.data.items.length === 0 ? (
        <EmptyState title={search.status ? `No ${search.status.replace(/_/g, ' ')} jobs on this runner.` : 'This runner has run no jobs you can see.'} />
      ) : (
        <>
          <DataTable caption="Jobs" columns={jobColumns} data={jobs.data.items} getRowId={(job) => String(job.id)} stale={jobs.isPlaceholderData} />
          <Paginator page={jobs.data} label="Jobs pages" />
        </>
      )}
    </section>
  );
}
