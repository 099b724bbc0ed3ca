import { compareNatural } from '../../lib/natural-order.ts';
/**
 * The pipeline graph's geometry, computed, never measured: one column per stage in the pipeline's
 * order, the stage's jobs by name under its heading, every box the same size. 200 jobs and their
 * `needs` lines are then laid out in one pass with no layout reads, and the SVG of the lines is
 * drawn in the same frame as the boxes.
 */

export interface GraphJob {
  id: number;
  name: string;
  stage: string;
  /** The names of the jobs this one needs (`needs:`), when the instance says them. */
  needs?: readonly string[];
}

export const GRAPH = {
  columnWidth: 232,
  columnGap: 56,
  headerHeight: 40,
  jobHeight: 44,
  jobGap: 8,
} as const;

export interface PlacedJob<J extends GraphJob> {
  job: J;
  column: number;
  row: number;
  x: number;
  y: number;
}

export interface GraphColumn<J extends GraphJob> {
  stage: string;
  jobs: PlacedJob<J>[];
}

export interface GraphLink {
  /** Ids of the job needed and the job needing it. */
  from: number;
  to: number;
  /** SVG path data, in the graph's own coordinates. */
  path: string;
}

export interface GraphLayout<J extends GraphJob> {
  columns: GraphColumn<J>[];
  links: GraphLink[];
  width: number;
  height: number;
}

/**
 * The stages in pipeline order: the platform creates a pipeline's jobs stage by stage, so a stage
 * whose first job has the lower id comes first (the jobs API does not give the stage order itself).
 */
export function stageOrder(jobs: readonly GraphJob[]): string[] {
  const first = new Map<string, number>();
  for (const job of jobs) first.set(job.stage, Math.min(first.get(job.stage) ?? Infinity, job.id));
  return [...first.keys()].sort((a, b) => first.get(a)! - first.get(b)!);
}


/** A line from the right edge of the needed job to the left edge of the job that needs it. */
function linkPath(from: PlacedJob<GraphJob>, to: PlacedJob<GraphJob>): string {
  const { columnWidth, jobHeight, columnGap } = GRAPH;
  const startX = from.x + columnWidth;
  const startY = from.y + jobHeight / 2;
  const endX = to.x;
  const endY = to.y + jobHeight / 2;
  if (to.column > from.column) {
    const bend = Math.min(columnGap, (endX - startX) / 2);
    return `M${startX} ${startY}C${startX + bend} ${startY} ${endX - bend} ${endY} ${endX} ${endY}`;
  }
  // a need within the same stage (or, with an odd order, a later one): loop out on the right side
  const loop = columnGap * 0.6;
  return `M${startX} ${startY}C${startX + loop} ${startY} ${to.x + columnWidth + loop} ${endY} ${to.x + columnWidth} ${endY}`;
}

export function layoutGraph<J extends GraphJob>(jobs: readonly J[]): GraphLayout<J> {
  const { columnWidth, columnGap, headerHeight, jobHeight, jobGap } = GRAPH;
  const stages = stageOrder(jobs);
  const byStage = new Map<string, J[]>(stages.map((stage) => [stage, []]));
  for (const job of jobs) byStage.get(job.stage)!.push(job);
  const placed = new Map<string, PlacedJob<J>>();
  const columns = stages.map((stage, column) => {
    const stageJobs = byStage.get(stage)!.sort((a, b) => compareNatural(a.name, b.name) || a.id - b.id);
    return {
      stage,
      jobs: stageJobs.map((job, row) => {
        const place = { job, column, row, x: column * (columnWidth + columnGap), y: headerHeight + row * (jobHeight + jobGap) };
        // a name appears once in a pipeline (retried jobs are left out of the list)
        if (!placed.has(job.name)) placed.set(job.name, place);
        return place;
      }),
    };
  });
  const links: GraphLink[] = [];
  for (const column of columns) {
    for (const place of column.jobs) {
      for (const need of place.job.needs ?? []) {
        const from = placed.get(need);
        if (from && from.job.id !== place.job.id) links.push({ from: from.job.id, to: place.job.id, path: linkPath(from, place) });
      }
    }
  }
  const tallest = Math.max(0, ...columns.map((column) => column.jobs.length));
  return {
    columns,
    links,
    width: columns.length ? columns.length * columnWidth + (columns.length - 1) * columnGap + columnGap : 0,
    height: headerHeight + tallest * (jobHeight + jobGap),
  };
}
