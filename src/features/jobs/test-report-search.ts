import * as z from 'zod/mini';
import { pageParams, searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';
import { CASE_STATUSES } from './test-report-model.ts';

/** The test report tab's URL: a suite, words to find, a status, the page (the route's schema: kept apart from the screen, which loads with the tab). */
export const testReportSearchSchema = searchSchema(() =>
  z.object({
    suite: withDefault(z.string(), ''),
    search: withDefault(z.string(), ''),
    status: z.catch(z.optional(z.enum(CASE_STATUSES)), undefined),
    ...pageParams(),
  }),
);
export type TestReportSearch = SearchOf<typeof testReportSearchSchema>;
export const TEST_REPORT_SEARCH_DEFAULTS = { suite: '', search: '', page: 1, per_page: 20 } as const;
