import * as z from 'zod/mini';
import { dayParam, withDefault, pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';


/** A commit history in the URL (spec 3, 4.1): every filter falls back to its default when the URL is off. */
export const historySearchSchema = searchSchema(() => z.object({
  /** A branch, tag, sha or range (`a..b`, `a...b`); empty is the default branch. */
  ref_name: withDefault(z.string(), ''),
  path: withDefault(z.string(), ''),
  author: withDefault(z.string(), ''),
  /** Days (`YYYY-MM-DD`), both inclusive. */
  since: dayParam(),
  until: dayParam(),
  all: withDefault(z.boolean(), false),
  first_parent: withDefault(z.boolean(), false),
  order: withDefault(z.enum(['default', 'topo']), 'default'),
  with_stats: withDefault(z.boolean(), false),
  trailers: withDefault(z.boolean(), false),
  ...pageParams(),
}));
export type HistorySearch = SearchOf<typeof historySearchSchema>;

/** Left out of the URL when equal, so the plain history has a plain address. */
export const HISTORY_SEARCH_DEFAULTS: HistorySearch = {
  ref_name: '', path: '', author: '', since: '', until: '', all: false, first_parent: false, order: 'default', with_stats: false, trailers: false, page: 1, per_page: 20,
};

/** Whether anything narrows the list (for the empty state's wording). */
export function isFiltered(search: HistorySearch): boolean {
  return Boolean(search.path || search.author || search.since || search.until || search.first_parent);
}

export const historyRouteOptions = {
  validateSearch: historySearchSchema,
  loaderDeps: ({ search }: { search: HistorySearch }) => search,
};
