import * as z from 'zod/mini';
import { pageParams, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import type { RunnerFilters, RunnerJobsParams, RunnerListParams } from '../../api/runners.ts';
import { JOB_STATUSES, RUNNER_STATUS_VALUES, RUNNER_TYPE_VALUES } from '../../api/vocabulary.ts';

/** What the platform takes as a version prefix (`15`, `15.0`, `15.0.1`); anything else would be a 400. */
export const VERSION_PREFIX_PATTERN = /^\d+(\.\d+){0,2}\.?$/;

/** A fleet view in the URL: every filter of spec 1, 4.3, each falling back on its own when the URL is off. */
export const runnersSearchSchema = searchSchema(() => z.object({
  type: z.catch(z.optional(z.enum(RUNNER_TYPE_VALUES)), undefined),
  status: z.catch(z.optional(z.enum(RUNNER_STATUS_VALUES)), undefined),
  paused: z.catch(z.optional(z.boolean()), undefined),
  tag_list: withDefault(z.array(z.string().check(z.trim(), z.minLength(1))), []),
  version_prefix: withDefault(z.string().check(z.trim(), z.refine((text) => text === '' || VERSION_PREFIX_PATTERN.test(text))), ''),
  ...pageParams(),
}));
export type RunnersSearch = SearchOf<typeof runnersSearchSchema>;

/** Left out of the URL when equal, so the plain fleet has a plain address. */
export const RUNNERS_SEARCH_DEFAULTS: Partial<RunnersSearch> = { tag_list: [], version_prefix: '', page: 1, per_page: 20 };

/** The filters alone (what the export and the empty state care about). */
export function runnerFilters(search: RunnersSearch): RunnerFilters {
  return {
    type: search.type,
    status: search.status,
    paused: search.paused,
    tag_list: search.tag_list.length ? search.tag_list : undefined,
    version_prefix: search.version_prefix || undefined,
  };
}

export function runnerListParams(search: RunnersSearch): RunnerListParams {
  return { ...runnerFilters(search), page: search.page, per_page: search.per_page };
}

export const isFiltered = (search: RunnersSearch) => Object.values(runnerFilters(search)).some((value) => value !== undefined);

/** A runner's page in the URL: its jobs list's filter, order and page. */
export const runnerSearchSchema = searchSchema(() => z.object({
  status: z.catch(z.optional(z.enum(JOB_STATUSES)), undefined),
  sort: withDefault(z.enum(['desc', 'asc']), 'desc'),
  ...pageParams(),
}));
export type RunnerSearch = SearchOf<typeof runnerSearchSchema>;

export const RUNNER_SEARCH_DEFAULTS: Partial<RunnerSearch> = { sort: 'desc', page: 1, per_page: 20 };

export function runnerJobsParams(search: RunnerSearch): RunnerJobsParams {
  return { status: search.status, sort: search.sort, page: search.page, per_page: search.per_page };
}
