import { memo, useCallback, useId, useMemo, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { jobsQueries, type Job } from '../../api/jobs.ts';
import { isPipelineMoving, pipelinesQueries } from '../../api/pipelines.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { EmptyState } from '../../components/states.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { GRAPH, layoutGraph, type PlacedJob } from './graph-layout.ts';
import { JobActionButton } from './job-actions.tsx';
import { JobStatus } from './job-status.tsx';
import { runRefusal } from '../../components/pipeline-writes.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { formatDuration } from '../../lib/duration.ts';
import { formatCountOf } from '../../lib/numbers.ts';

/** A pipeline's jobs (every page), live while any of them moves. */
export function usePipelineJobs(projectId: number, pipelineId: number): Job[] {
  const connection = useConnection();
  const live = useLiveRefetch((jobs: Job[]) => jobs.some((job) => isPipelineMoving(job.status)));
  return useSuspenseQuery({ ...jobsQueries.pipeline(connection, projectId, pipelineId), refetchInterval: live }).data;
}

/**
 * The stages as columns, each job a box with its status (symbol and words), its duration and its
 * action; the `needs` drawn as lines from the job needed to the job needing it. Hovering or
 * focusing a job brings out its lines. Geometry comes from graph-layout.ts: nothing is measured.
 */
export function PipelineGraph({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const { jobs, needsError } = useJobsWithNeeds(projectId, pipelineId);
  const layout = useMemo(() => layoutGraph(jobs), [jobs]);
  const { caller } = useProjectCaller(projectId);
  const canRun = runRefusal(caller) === null;
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const related = useMemo(() => {
    const ids = new Set<number>();
    if (highlighted === null) return ids;
    for (const link of layout.links) if (link.from === highlighted || link.to === highlighted) ids.add(link.from).add(link.to);
    return ids;
  }, [highlighted, layout]);
  const onHighlight = useCallback((id: number | null) => setHighlighted(id), []);
  const graphId = useId();
  if (!jobs.length) return <EmptyState title="This pipeline has no jobs" />;
  const linkCount = layout.links.length;
  return (
    <>
      {needsError ? (
        <p className="muted" role="note">
          No lines between jobs: the instance did not say which jobs need which ({needsError}).
        </p>
      ) : null}
      <div className="pipeline-graph" role="region" aria-label="Pipeline graph" tabIndex={0}>
        <div className="pipeline-graph__canvas" style={{ width: layout.width, height: layout.height }}>
          <svg className="pipeline-graph__links" width={layout.width} height={layout.height} role="img" aria-label={formatCountOf(linkCount, 'needs link', 'needs links')}>
            {layout.links.map((link) => (
              <path key={`${link.from}-${link.to}`} d={link.path} className={highlighted !== null && (link.from === highlighted || link.to === highlighted) ? 'is-highlighted' : undefined} />
            ))}
          </svg>
          {layout.columns.map((column, index) => (
            <section
              key={column.stage}
              className="pipeline-graph__stage"
              style={{ left: index * (GRAPH.columnWidth + GRAPH.columnGap), width: GRAPH.columnWidth }}
              aria-labelledby={`${graphId}-${index}`}
            >
              <h2 id={`${graphId}-${index}`}>{column.stage}</h2>
              <ul aria-label={`Jobs of stage ${column.stage}`}>
                {column.jobs.map((place) => (
                  <GraphJob key={place.job.id} projectId={projectId} place={place} canRun={canRun} highlighted={related.has(place.job.id)} onHighlight={onHighlight} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}

/**
 * The jobs with what each needs: from the jobs themselves when the instance sends `needs`, or
 * else from GraphQL, as the platform's own graph reads them. The boxes paint first; the lines
 * follow when the needs arrive.
 */
function useJobsWithNeeds(projectId: number, pipelineId: number): { jobs: Job[]; needsError: string | null } {
  const connection = useConnection();
  const jobs = usePipelineJobs(projectId, pipelineId);
  const iid = useSuspenseQuery(pipelinesQueries.detail(connection, projectId, pipelineId)).data.iid;
  const restNeeds = jobs.some((job) => job.needs.length > 0);
  const fullPath = useQuery({ ...projectsQueries.detail(connection, projectId), enabled: !restNeeds }).data?.path_with_namespace;
  const needs = useQuery({ ...jobsQueries.needs(connection, projectId, fullPath ?? '', iid ?? 0), enabled: !restNeeds && Boolean(fullPath) && Boolean(iid) });
  const withNeeds = useMemo(() => (restNeeds || !needs.data ? jobs : jobs.map((job) => ({ ...job, needs: needs.data[job.name] ?? [] }))), [jobs, needs.data, restNeeds]);
  return { jobs: withNeeds, needsError: needs.error ? needs.error.message : null };
}

const GraphJob = memo(function GraphJob({
  projectId,
  place,
  canRun,
  highlighted,
  onHighlight,
}: {
  projectId: number;
  place: PlacedJob<Job>;
  canRun: boolean;
  highlighted: boolean;
  onHighlight: (id: number | null) => void;
}) {
  const { job } = place;
  const duration = job.duration !== null && job.duration !== undefined ? formatDuration(job.duration) : '';
  return (
    <li
      className={highlighted ? 'graph-job is-highlighted' : 'graph-job'}
      style={{ top: place.y, width: GRAPH.columnWidth, height: GRAPH.jobHeight }}
      onMouseEnter={() => onHighlight(job.id)}
      onMouseLeave={() => onHighlight(null)}
      onFocus={() => onHighlight(job.id)}
      onBlur={() => onHighlight(null)}
    >
      <span className="graph-job__main">
        <RouteLink className="graph-job__name" to="/projects/$projectId/jobs/$jobId" params={{ projectId, jobId: job.id }} title={job.name}>
          {job.name}
        </RouteLink>
        <span className="graph-job__meta">
          <JobStatus status={job.status} allowFailure={job.allow_failure} />
          {duration ? ` · ${duration}` : ''}
          {job.needs.length ? <span className="sr-only"> · needs {job.needs.join(', ')}</span> : null}
        </span>
      </span>
      {canRun ? <JobActionButton projectId={projectId} job={job} compact /> : null}
    </li>
  );
});
