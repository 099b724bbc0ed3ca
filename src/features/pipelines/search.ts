import * as z from 'zod/mini';
import { PIPELINE_ORDERS, PIPELINE_SCOPES, PIPELINE_SOURCES, PIPELINE_STATUSES, type PipelineOrder } from '../../api/vocabulary.ts';
import { dayParam, pageParams, searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';

const optionalEnum = <T extends string>(values: readonly T[]) => withDefault(z.union([z.literal(''), z.enum(values as unknown as [T, ...T[]])]), '');

/**
 * The pipelines list in the URL: every filter of spec 3, 4.5. `scope` '' is the All tab; the
 * date range is two days, both inclusive (`updated_before` is the end of its day).
 */
export const pipelinesSearchSchema = searchSchema(() =>
  z.object({
    scope: optionalEnum(PIPELINE_SCOPES),
    status: optionalEnum(PIPELINE_STATUSES),
    source: optionalEnum(PIPELINE_SOURCES),
    ref: withDefault(z.string(), ''),
    sha: withDefault(z.string(), ''),
    username: withDefault(z.string(), ''),
    name: withDefault(z.string(), ''),
    yaml_errors: withDefault(z.boolean(), false),
    updated_after: dayParam(),
    updated_before: dayParam(),
    order_by: withDefault(z.enum(PIPELINE_ORDERS as unknown as [PipelineOrder, ...PipelineOrder[]]), 'id'),
    sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
    ...pageParams(),
  }),
);
export type PipelinesSearch = SearchOf<typeof pipelinesSearchSchema>;

export const PIPELINES_SEARCH_DEFAULTS: PipelinesSearch = {
  scope: '', status: '', source: '', ref: '', sha: '', username: '', name: '', yaml_errors: false,
  updated_after: '', updated_before: '', order_by: 'id', sort: 'desc', page: 1, per_page: 20,
};

/** The tabs of the platform's list; running and pending stay reachable through the URL and the status filter. */
export const PIPELINE_TABS = [
  { value: '', label: 'All' },
  { value: 'finished', label: 'Finished' },
  { value: 'branches', label: 'Branches' },
  { value: 'tags', label: 'Tags' },
] as const;

export const PIPELINE_ORDER_LABELS: ReadonlyArray<{ value: PipelineOrder; label: string }> = [
  { value: 'id', label: 'ID' },
  { value: 'updated_at', label: 'Last updated' },
  { value: 'status', label: 'Status' },
  { value: 'ref', label: 'Ref' },
  { value: 'user_id', label: 'Triggerer' },
];

/** Whether a filter (not the tab, order or page) narrows the list: the empty state says so. */
export function isFiltered(search: PipelinesSearch): boolean {
  return Boolean(search.status || search.source || search.ref || search.sha || search.username || search.name || search.yaml_errors || search.updated_after || search.updated_before);
}

/**
 * "Jump to date": the list from the end of `day` backwards, newest update first, so its first
 * page starts at that date; the range's start is dropped (it would hide the way back).
 */
export function jumpToDate(day: string): Partial<PipelinesSearch> {
  return { updated_before: day, updated_after: '', order_by: 'updated_at', sort: 'desc', page: 1 };
}

/** The run form's URL: the ref to start from (the default branch when empty). */
export const runPipelineSearchSchema = searchSchema(() => z.object({ ref: withDefault(z.string(), '') }));
export type RunPipelineSearch = SearchOf<typeof runPipelineSearchSchema>;

/** The durations chart's URL: the ref and how many of its last pipelines. */
export const PIPELINE_CHART_COUNTS = [20, 50, 100] as const;
export const pipelineChartSearchSchema = searchSchema(() =>
  z.object({
    ref: withDefault(z.string(), ''),
    count: withDefault(z.union([z.literal(20), z.literal(50), z.literal(100)]), 50),
  }),
);
export type PipelineChartSearch = SearchOf<typeof pipelineChartSearchSchema>;
export const PIPELINE_CHART_SEARCH_DEFAULTS: PipelineChartSearch = { ref: '', count: 50 };
