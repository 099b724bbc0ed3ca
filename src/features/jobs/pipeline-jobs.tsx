import type { Job } from '../../api/jobs.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { JobActionButton } from './job-actions.tsx';
import { JobStatus } from './job-status.tsx';
import { runRefusal } from '../../components/pipeline-writes.ts';
import { usePipelineJobs } from './pipeline-graph.tsx';
import { stageOrder } from './graph-layout.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { formatDuration } from '../../lib/duration.ts';

/** The pipeline's jobs as a table, in stage order, each with its action; live with the graph's query. */
export function PipelineJobsTable({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const jobs = usePipelineJobs(projectId, pipelineId);
  const { caller } = useProjectCaller(projectId);
  const canRun = runRefusal(caller) === null;
  if (!jobs.length) return <EmptyState title="This pipeline has no jobs" />;
  const stages = stageOrder(jobs);
  const ordered = [...jobs].sort((a, b) => stages.indexOf(a.stage) - stages.indexOf(b.stage) || a.id - b.id);
  const columns: ColumnDef<Job>[] = [
    { id: 'status', header: 'Status', cell: ({ row }) => <JobStatus status={row.original.status} allowFailure={row.original.allow_failure} /> },
    {
      id: 'name',
      header: 'Job',
      cell: ({ row }) => (
        <RouteLink to="/projects/$projectId/jobs/$jobId" params={{ projectId, jobId: row.original.id }}>
          <BreakableText text={row.original.name} />
        </RouteLink>
      ),
    },
    { id: 'id', header: 'ID', cell: ({ row }) => `#${row.original.id}` },
    { id: 'stage', header: 'Stage', cell: ({ row }) => <BreakableText text={row.original.stage} /> },
    { id: 'duration', header: 'Duration', cell: ({ row }) => formatDuration(row.original.duration) },
    { id: 'queued', header: 'Queued', cell: ({ row }) => formatDuration(row.original.queued_duration) },
    { id: 'started', header: 'Started', cell: ({ row }) => <Time value={row.original.started_at} relative /> },
    { id: 'runner', header: 'Runner', cell: ({ row }) => (row.original.runner ? `#${row.original.runner.id}` : '') },
    { id: 'coverage', header: 'Coverage', cell: ({ row }) => (row.original.coverage !== null && row.original.coverage !== undefined ? `${row.original.coverage}%` : '') },
    ...(canRun ? [{ id: 'actions', header: 'Actions', cell: ({ row }: { row: { original: Job } }) => <JobActionButton projectId={projectId} job={row.original} /> }] : []),
  ];
  return <DataTable caption="Jobs of the pipeline" columns={columns} data={ordered} getRowId={(job) => String(job.id)} />;
}
