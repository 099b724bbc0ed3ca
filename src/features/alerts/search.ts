import * as z from 'zod/mini';
import type { AlertListParams } from '../../api/alerts.ts';
import { ALERT_SORTS, ALERT_TABS } from '../../api/vocabulary.ts';
import { searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';

const cursor = () => z.catch(z.optional(z.string().check(z.maxLength(500))), undefined);

/** The alert list's URL: status tab, text search, sort, and the cursor of the page in view. */
export const alertListSearchSchema = searchSchema(() =>
  z.object({
    tab: withDefault(z.enum(ALERT_TABS), 'open'),
    search: withDefault(z.string().check(z.maxLength(255)), ''),
    sort: withDefault(z.enum(ALERT_SORTS.map((sort) => sort.value) as [AlertListParams['sort'], ...AlertListParams['sort'][]]), 'STARTED_AT_DESC'),
    after: cursor(),
    /** The `after` cursors of the pages before this one, so Previous works with forward cursors only. */
    trail: withDefault(z.array(z.string().check(z.maxLength(500))).check(z.maxLength(200)), []),
  }),
);
export type AlertListSearch = SearchOf<typeof alertListSearchSchema>;
export const ALERT_LIST_SEARCH_DEFAULTS: Partial<AlertListSearch> = { tab: 'open', search: '', sort: 'STARTED_AT_DESC', trail: [] };

/** The API's params of a URL. */
export function alertListParams(search: AlertListSearch): AlertListParams {
  return { tab: search.tab, search: search.search.trim(), sort: search.sort, ...(search.after ? { after: search.after } : {}) };
}

type Paged = { after?: string; trail: string[] };

/** The next page's search: this page's cursor joins the trail (an empty one stands for the first page). */
export function nextPageSearch<S extends Paged>(current: S, endCursor: string): S {
  return { ...current, after: endCursor, trail: [...current.trail, current.after ?? ''] };
}

/** The previous page's search: the last cursor of the trail, or the first page. */
export function previousPageSearch<S extends Paged>(current: S): S {
  const after = current.trail.at(-1);
  return { ...current, after: after || undefined, trail: current.trail.slice(0, -1) };
}

/** The tester's URL: which integration is picked (its global id), and the payload format's template. */
export const alertTesterSearchSchema = searchSchema(() =>
  z.object({
    integration: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
  }),
);
export type AlertTesterSearch = SearchOf<typeof alertTesterSearchSchema>;
