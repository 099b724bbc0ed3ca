import * as z from 'zod/mini';
import { ALERT_SORTS, ALERT_TABS, type AlertListParams } from '../../api/alerts.ts';
import { searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';

const cursor = z.catch(z.optional(z.string().check(z.maxLength(500))), undefined);

/** The alert list's URL: status tab, text search, sort, and the cursor of the page in view. */
export const alertListSearchSchema = searchSchema(() =>
  z.object({
    tab: withDefault(z.enum(ALERT_TABS), 'open'),
    search: withDefault(z.string().check(z.maxLength(255)), ''),
    sort: withDefault(z.enum(ALERT_SORTS.map((sort) => sort.value) as [AlertListParams['sort'], ...AlertListParams['sort'][]]), 'STARTED_AT_DESC'),
    after: cursor,
    before: cursor,
  }),
);
export type AlertListSearch = SearchOf<typeof alertListSearchSchema>;
export const ALERT_LIST_SEARCH_DEFAULTS: Partial<AlertListSearch> = { tab: 'open', search: '', sort: 'STARTED_AT_DESC' };

/** The API's params of a URL: one cursor at most (`before` wins: it is the Previous link's). */
export function alertListParams(search: AlertListSearch): AlertListParams {
  return { tab: search.tab, search: search.search.trim(), sort: search.sort, ...(search.before ? { before: search.before } : search.after ? { after: search.after } : {}) };
}

/** The tester's URL: which integration is picked (its global id), and the payload format's template. */
export const alertTesterSearchSchema = searchSchema(() =>
  z.object({
    integration: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
  }),
);
export type AlertTesterSearch = SearchOf<typeof alertTesterSearchSchema>;
