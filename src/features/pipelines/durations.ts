import type { PipelineDetail } from '../../api/pipelines.ts';
import { formatDuration } from '../../lib/duration.ts';
import { formatCountOf } from '../../lib/numbers.ts';

/** One point of the chart: a finished pipeline, when it was created, how long it ran and waited. */
export interface DurationPoint {
  id: number;
  /** Seconds since the epoch (uPlot's time axis). */
  at: number;
  created: string;
  status: string;
  duration: number | null;
  queued: number | null;
}

export function durationPoints(pipelines: readonly PipelineDetail[]): DurationPoint[] {
  return pipelines
    .filter((pipeline) => pipeline.created_at)
    .map((pipeline) => ({
      id: pipeline.id,
      at: Date.parse(pipeline.created_at!) / 1000,
      created: pipeline.created_at!,
      status: pipeline.status,
      duration: pipeline.duration ?? null,
      queued: pipeline.queued_duration ?? null,
    }));
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The chart in words, for everyone who does not read the canvas: the median duration and queue
 * time, and how the latest pipeline compares, so a slowdown shows without the picture.
 */
export function durationSummary(points: readonly DurationPoint[]): string {
  const durations = points.flatMap((point) => (point.duration === null ? [] : [point.duration]));
  if (durations.length === 0) return 'None of these pipelines has a recorded duration.';
  const middle = median(durations)!;
  const queued = median(points.flatMap((point) => (point.queued === null ? [] : [point.queued])));
  const latest = [...points].reverse().find((point) => point.duration !== null)!;
  const change = middle > 0 ? Math.round(((latest.duration! - middle) / middle) * 100) : 0;
  const comparison = change === 0 ? 'the same as the median' : `${Math.abs(change)}% ${change > 0 ? 'slower' : 'faster'} than the median`;
  return `Median duration ${formatDuration(middle)} over ${formatCountOf(durations.length, 'pipeline', 'pipelines')}${
    queued === null ? '' : `, median queue time ${formatDuration(queued)}`
  }. The latest, #${latest.id}, took ${formatDuration(latest.duration)}: ${comparison}. Longest ${formatDuration(Math.max(...durations))}, shortest ${formatDuration(Math.min(...durations))}.`;
}
