import * as z from 'zod/mini';
import { pageParams, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import { BILLABLE_SORT_VALUES } from '../../api/vocabulary.ts';

const positiveIds = () => withDefault(z.array(z.number().check(z.int(), z.positive())), []);

/** A members list in the URL: every filter falls back to its default when the URL is off. */
export const membersSearchSchema = searchSchema(() => z.object({
  tab: withDefault(z.enum(['direct', 'all']), 'direct'),
  query: withDefault(z.string(), ''),
  user_ids: positiveIds(),
  skip_users: positiveIds(),
  show_seat_info: withDefault(z.boolean(), false),
  state: z.catch(z.optional(z.enum(['active', 'awaiting'])), undefined),
  ...pageParams(),
}));
export type MembersSearch = SearchOf<typeof membersSearchSchema>;

/** Left out of the URL when equal, so a plain list has a plain address. */
export const MEMBERS_SEARCH_DEFAULTS: Partial<MembersSearch> = { tab: 'direct', query: '', user_ids: [], skip_users: [], show_seat_info: false, page: 1, per_page: 20 };

export const billableSearchSchema = searchSchema(() => z.object({
  search: withDefault(z.string(), ''),
  sort: withDefault(z.enum(BILLABLE_SORT_VALUES), 'name_asc'),
  ...pageParams(),
  /** The member whose memberships the side panel shows. */
  member: z.catch(z.optional(z.number().check(z.int(), z.positive())), undefined),
}));
export type BillableSearch = SearchOf<typeof billableSearchSchema>;

export const BILLABLE_SEARCH_DEFAULTS: Partial<BillableSearch> = { search: '', sort: 'name_asc', page: 1, per_page: 20 };

/** What the members list query takes from the URL (the tab chooses the endpoint). */
export function membersListParams(search: MembersSearch) {
  const { tab: _tab, ...params } = search;
  return params;
}

/** What the group and project members routes share: the URL's schema and what the loader fetches. */
export const membersRouteOptions = {
  validateSearch: membersSearchSchema,
  loaderDeps: ({ search }: { search: MembersSearch }) => search,
};

export const billableRouteOptions = {
  validateSearch: billableSearchSchema,
  loaderDeps: ({ search: { member: _member, ...list } }: { search: BillableSearch }) => list,
};
