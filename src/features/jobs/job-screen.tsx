import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { jobsQueries, jobVariableSchema, type Job, type JobVariable } from '../../api/jobs.ts';
import { isPipelineMoving } from '../../api/pipelines.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { RoutePending } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { JobActionButton, jobAction } from './job-actions.tsx';
import { JobLog } from './job-log.tsx';
import { JobStatus } from './job-status.tsx';
import { usePlayJob } from './mutations.ts';
import { runRefusal } from '../../components/pipeline-writes.ts';
import './jobs.css';
import { formatDuration } from '../../lib/duration.ts';

/** The platform's failure reasons in words (Ci::Build failure_reason); others are shown as sent. */
const FAILURE_REASONS: Record<string, string> = {
  script_failure: 'The script failed',
  api_failure: 'An API failure',
  stuck_or_timeout_failure: 'The job was stuck or timed out',
  runner_system_failure: 'A runner system failure',
  missing_dependency_failure: 'A dependency of the job is missing',
  runner_unsupported: 'The runner does not support the job',
  job_execution_timeout: 'The job ran longer than its timeout',
  archived_failure: 'The job is archived and cannot run',
  unmet_prerequisites: 'The job’s prerequisites were not met',
  scheduler_failure: 'The scheduler failed to assign the job to a runner',
  data_integrity_failure: 'A data integrity failure',
  unknown_failure: 'An unknown failure',
};

export function failureReasonText(reason: string): string {
  return FAILURE_REASONS[reason] ?? reason.replace(/_/g, ' ');
}

/** One job: what ran where and for how long, its action, and its log (live while it runs). */
export function JobScreen({ projectId, jobId }: { projectId: number; jobId: number }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const jobLive = useLiveRefetch((data: Job) => isPipelineMoving(data.status));
  const job = useSuspenseQuery({ ...jobsQueries.detail(connection, projectId, jobId), refetchInterval: jobLive }).data;
  const active = isPipelineMoving(job.status);
  const traceLive = useLiveRefetch(() => active);
  const trace = useQuery({ ...jobsQueries.trace(connection, projectId, jobId), refetchInterval: traceLive });
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = runRefusal(caller);
  const headingId = useId();
  const stuck = useStuck(projectId, job);

  // the log's last lines arrive with the end of the job: read it once more then
  const [wasActive, setWasActive] = useState(active);
  useEffect(() => {
    if (wasActive && !active) void queryClient.invalidateQueries({ queryKey: jobsQueries.trace(connection, projectId, jobId).queryKey });
    setWasActive(active);
  }, [active, wasActive, queryClient, connection, projectId, jobId]);

  const openJob = (next: Job) => {
    if (next.id !== job.id) void navigate({ to: '/projects/$projectId/jobs/$jobId', params: { projectId: String(projectId), jobId: String(next.id) } });
  };

  return (
    <article className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>
          Job {job.name} <span className="muted">#{job.id}</span>
        </h1>
        <span className="row-actions">
          <JobStatus status={job.status} allowFailure={job.allow_failure} />
          {!refusal && jobAction(job) !== 'play' ? <JobActionButton projectId={projectId} job={job} onDone={openJob} /> : null}
        </span>
      </header>
      <RoleUnread failure={failure} />
      {!pending && refusal && jobAction(job) && caller.canWrite ? (
        <p className="muted" role="note">
          {refusal}
        </p>
      ) : null}
      {stuck ? (
        <p className="notice" role="status">
          This job is stuck: no online runner of this project, its groups or the instance can pick it{job.tag_list.length ? ` (it needs the tags ${job.tag_list.join(', ')})` : ''}.
        </p>
      ) : null}
      {job.status === 'failed' && job.failure_reason ? (
        <p className="form-error" role="status">
          Failed: {failureReasonText(job.failure_reason)}
          {job.allow_failure ? ' (allowed to fail: the pipeline carries on)' : ''}.
        </p>
      ) : null}
      <JobFacts projectId={projectId} job={job} />
      {jobAction(job) === 'play' && !refusal ? <PlayForm projectId={projectId} job={job} /> : null}
      <h2>Log</h2>
      {trace.isPending ? (
        <RoutePending />
      ) : trace.data === undefined ? (
        <ErrorPanel error={trace.error} onRetry={() => void trace.refetch()} />
      ) : (
        <>
          {trace.isError ? <ErrorPanel error={trace.error} onRetry={() => void trace.refetch()} /> : null}
          <JobLog text={trace.data} jobName={job.name} live={active} />
        </>
      )}
    </article>
  );
}

/**
 * A pending job may be stuck (no online runner of the project, its groups or the instance can
 * pick it): the job says so where the instance adds `stuck`, or else GraphQL's `CiJob.stuck`,
 * asked again while it waits.
 */
function useStuck(projectId: number, job: Job): boolean {
  const connection = useConnection();
  const pending = job.status === 'pending';
  const ask = pending && (job.stuck === null || job.stuck === undefined);
  const fullPath = useQuery({ ...projectsQueries.detail(connection, projectId), enabled: ask }).data?.path_with_namespace;
  const live = useLiveRefetch(() => ask);
  const stuck = useQuery({ ...jobsQueries.stuck(connection, projectId, fullPath ?? '', job.id), enabled: ask && Boolean(fullPath), refetchInterval: live });
  if (!pending) return false;
  return job.stuck ?? stuck.data ?? false;
}

function JobFacts({ projectId, job }: { projectId: number; job: Job }) {
  const params = { projectId: String(projectId) };
  return (
    <dl className="facts">
      <dt>Stage</dt>
      <dd>{job.stage}</dd>
      {job.pipeline ? (
        <>
          <dt>Pipeline</dt>
          <dd>
            <Link to="/projects/$projectId/pipelines/$pipelineId" params={{ ...params, pipelineId: String(job.pipeline.id) }}>
              #{job.pipeline.id}
            </Link>
          </dd>
        </>
      ) : null}
      {job.ref ? (
        <>
          <dt>{job.tag ? 'Tag' : 'Branch'}</dt>
          <dd>
            <code>{job.ref}</code>
          </dd>
        </>
      ) : null}
      {job.commit ? (
        <>
          <dt>Commit</dt>
          <dd>
            <Link to="/projects/$projectId/commit/$sha" params={{ ...params, sha: job.commit.id }}>
              <code>{job.commit.short_id ?? job.commit.id.slice(0, 8)}</code>
            </Link>{' '}
            {job.commit.title}
          </dd>
        </>
      ) : null}
      <dt>Runner</dt>
      <dd>{job.runner ? `#${job.runner.id}${job.runner.description ? ` ${job.runner.description}` : ''}` : <span className="muted">none yet</span>}</dd>
      {job.tag_list.length ? (
        <>
          <dt>Tags</dt>
          <dd>
            {job.tag_list.map((tag) => (
              <span key={tag} className="badge">
                {tag}
              </span>
            ))}
          </dd>
        </>
      ) : null}
      <dt>Duration</dt>
      <dd>{job.duration !== null && job.duration !== undefined ? formatDuration(job.duration) : <span className="muted">not started</span>}</dd>
      <dt>Queued</dt>
      <dd>{job.queued_duration !== null && job.queued_duration !== undefined ? formatDuration(job.queued_duration) : <span className="muted">—</span>}</dd>
      <dt>Started</dt>
      <dd>
        <Time value={job.started_at} relative fallback="not yet" />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time value={job.finished_at} relative fallback="not yet" />
      </dd>
      {job.coverage !== null && job.coverage !== undefined ? (
        <>
          <dt>Coverage</dt>
          <dd>{job.coverage}%</dd>
        </>
      ) : null}
      {job.user ? (
        <>
          <dt>Triggered by</dt>
          <dd>{job.user.name}</dd>
        </>
      ) : null}
    </dl>
  );
}

type Row = JobVariable & { id: number };

/** A manual job runs on a press, with variables for this run only (`job_variables_attributes`). */
function PlayForm({ projectId, job }: { projectId: number; job: Job }) {
  const play = usePlayJob();
  const [rows, setRows] = useState<Row[]>([]);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [nextId, setNextId] = useState(1);
  const headingId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<number, string> = {};
    const keys = new Set<string>();
    const variables: JobVariable[] = [];
    for (const row of rows) {
      if (!row.key && !row.value) continue;
      const parsed = z.safeParse(jobVariableSchema, row);
      if (!parsed.success) found[row.id] = parsed.error.issues[0].message;
      else if (keys.has(parsed.data.key)) found[row.id] = `${parsed.data.key} is set twice`;
      else {
        keys.add(parsed.data.key);
        variables.push(parsed.data);
      }
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    play.mutate({ projectId, jobId: job.id, variables });
  };
  const update = (id: number, change: Partial<JobVariable>) => setRows((previous) => previous.map((row) => (row.id === id ? { ...row, ...change } : row)));
  return (
    <form className="form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h2 id={headingId}>Run this manual job</h2>
      {rows.map((row, index) => (
        <fieldset key={row.id} className="row-actions">
          <legend className="sr-only">Variable {index + 1}</legend>
          <label>
            Key of variable {index + 1}{' '}
            <input
              className="input"
              value={row.key}
              onChange={(event) => update(row.id, { key: event.target.value })}
              aria-invalid={errors[row.id] ? true : undefined}
              aria-describedby={errors[row.id] ? `${headingId}-error-${row.id}` : undefined}
            />
          </label>
          <label>
            Value of variable {index + 1} <input className="input" value={row.value} onChange={(event) => update(row.id, { value: event.target.value })} />
          </label>
          <button type="button" className="button" onClick={() => setRows((previous) => previous.filter((other) => other.id !== row.id))}>
            Remove variable {index + 1}
          </button>
          {errors[row.id] ? (
            <p className="field__error" id={`${headingId}-error-${row.id}`}>
              {errors[row.id]}
            </p>
          ) : null}
        </fieldset>
      ))}
      <span className="row-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            setRows((previous) => [...previous, { id: nextId, key: '', value: '' }]);
            setNextId(nextId + 1);
          }}
        >
          Add variable
        </button>
        <button type="submit" className="button button--primary" disabled={play.isPending} aria-busy={play.isPending || undefined}>
          Run job
        </button>
      </span>
      <WriteOutcome write={play} />
    </form>
  );
}
