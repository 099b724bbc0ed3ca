import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { canCancelPipeline, canRetryPipeline, isPipelineMoving, pipelinesQueries, type PipelineDetail } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { Time } from '../../components/time.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { CiStatusBadge } from '../../components/ci-status.tsx';
import { deleteRefusal, runRefusal, useCancelPipeline, useDeletePipeline, useRetryPipeline } from '../../components/pipeline-writes.ts';
import './jobs.css';
import { formatDuration } from '../../lib/duration.ts';

/** The tabs of one pipeline; each is a route under `/projects/$projectId/pipelines/$pipelineId`. */
const TABS = [
  { label: 'Graph', to: '/projects/$projectId/pipelines/$pipelineId' },
  { label: 'Jobs', to: '/projects/$projectId/pipelines/$pipelineId/jobs' },
  { label: 'Test report', to: '/projects/$projectId/pipelines/$pipelineId/test-report' },
  { label: 'Variables', to: '/projects/$projectId/pipelines/$pipelineId/variables' },
] as const;

const SOURCES: Record<string, string> = {
  push: 'a push',
  web: 'the web',
  api: 'the API',
  schedule: 'a schedule',
  trigger: 'a trigger',
  parent_pipeline: 'a parent pipeline',
  pipeline: 'another pipeline',
  merge_request_event: 'a merge request',
};

/** The pipeline's status, live while anything in it moves: the tabs read the same query. */
export function usePipeline(projectId: number, pipelineId: number) {
  const connection = useConnection();
  const live = useLiveRefetch((pipeline: PipelineDetail) => isPipelineMoving(pipeline.status));
  return useSuspenseQuery({ ...pipelinesQueries.detail(connection, projectId, pipelineId), refetchInterval: live }).data;
}

/** One pipeline: status, ref, commit, who and how long, its actions, then the tab in view. */
export function PipelineLayout({ projectId, pipelineId, children }: { projectId: number; pipelineId: number; children: ReactNode }) {
  const pipeline = usePipeline(projectId, pipelineId);
  const headingId = useId();
  const params = { projectId: String(projectId), pipelineId: String(pipelineId) };
  return (
    <article className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>
          Pipeline #{pipeline.id}
          {pipeline.name ? <span className="muted"> {pipeline.name}</span> : null}
        </h1>
        <PipelineActions projectId={projectId} pipeline={pipeline} />
      </header>
      <PipelineSummary projectId={projectId} pipeline={pipeline} />
      {pipeline.yaml_errors ? (
        <div className="error-panel" role="alert">
          <p className="error-panel__title">The CI file is not valid</p>
          <pre className="test-output">{pipeline.yaml_errors}</pre>
        </div>
      ) : null}
      <nav aria-label="Pipeline" className="tabs">
        {TABS.map((tab) => (
          <Link key={tab.label} to={tab.to} params={params} activeOptions={{ exact: true, includeSearch: false }} className="tabs__tab">
            {tab.label}
          </Link>
        ))}
      </nav>
      {children}
    </article>
  );
}

function PipelineSummary({ projectId, pipeline }: { projectId: number; pipeline: PipelineDetail }) {
  const params = { projectId: String(projectId) };
  return (
    <p className="row-actions">
      <CiStatusBadge status={pipeline.status} tooltip={pipeline.detailed_status?.tooltip} />
      {pipeline.ref ? (
        <span>
          on {pipeline.tag ? 'tag' : 'branch'} <code>{pipeline.ref}</code>
        </span>
      ) : null}
      <span>
        commit{' '}
        <Link to="/projects/$projectId/commit/$sha" params={{ ...params, sha: pipeline.sha }}>
          <code>{pipeline.sha.slice(0, 8)}</code>
        </Link>
      </span>
      {pipeline.source ? <span>from {SOURCES[pipeline.source] ?? pipeline.source.replace(/_/g, ' ')}</span> : null}
      {pipeline.user ? <span>by {pipeline.user.name}</span> : null}
      <span>
        created <Time value={pipeline.created_at} relative />
      </span>
      {pipeline.duration !== null && pipeline.duration !== undefined ? <span>took {formatDuration(pipeline.duration)}</span> : null}
      {pipeline.queued_duration !== null && pipeline.queued_duration !== undefined ? <span>queued {formatDuration(pipeline.queued_duration)}</span> : null}
      {pipeline.coverage !== null && pipeline.coverage !== undefined && pipeline.coverage !== '' ? <span>coverage {pipeline.coverage}%</span> : null}
    </p>
  );
}

/** Retry and cancel for Developers and up, delete for Owners: what the caller may not do is not offered. */
function PipelineActions({ projectId, pipeline }: { projectId: number; pipeline: PipelineDetail }) {
  const { caller } = useProjectCaller(projectId);
  const retry = useRetryPipeline();
  const cancel = useCancelPipeline();
  const remove = useDeletePipeline();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const runBlocked = runRefusal(caller);
  const deleteBlocked = deleteRefusal(caller);
  const variables = { projectId, pipelineId: pipeline.id };
  if (runBlocked && deleteBlocked) return null;
  return (
    <div>
      <span className="row-actions">
        {!runBlocked && canRetryPipeline(pipeline.status) ? (
          <button type="button" className="button" disabled={retry.isPending} onClick={() => retry.mutate(variables)}>
            Retry pipeline
          </button>
        ) : null}
        {!runBlocked && canCancelPipeline(pipeline.status) ? (
          <button type="button" className="button" disabled={cancel.isPending} onClick={() => cancel.mutate(variables)}>
            Cancel pipeline
          </button>
        ) : null}
        {!deleteBlocked ? (
          <button
            type="button"
            className="button button--danger-quiet"
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            Delete pipeline
          </button>
        ) : null}
      </span>
      <WriteOutcome write={retry} />
      <WriteOutcome write={cancel} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete pipeline #${pipeline.id}?`}
        description="The pipeline, its jobs, their logs and artifacts are deleted for good. This cannot be undone."
        confirmLabel="Delete pipeline"
        destructive
        write={remove}
        error={remove.status === 'refused' ? remove.error?.message : undefined}
        onConfirm={() =>
          remove.mutate(variables, {
            onSuccess: () => {
              setConfirming(false);
              // to the pipelines list (its route is the pipelines area's); a deleted pipeline's queries would answer 404
              void navigate({ href: `/projects/${projectId}/pipelines` }).then(() => queryClient.removeQueries({ queryKey: pipelinesQueries.pipeline(projectId, pipeline.id) }));
            },
          })
        }
      />
    </div>
  );
}
