import * as z from 'zod/mini';
import { optionalTextParam, pageParams, searchSchema, textListParam, withDefault, type SearchOf } from '../../lib/search-params.ts';
import { tokenModel, type FilterToken, type TokenFieldDef } from '../../lib/filter-tokens.ts';
import type { MergeRequestFilters, MergeRequestListParams, NegatableMergeRequestFilters } from '../../api/merge-requests.ts';

/**
 * A merge request list in the URL: the instance's "whose" tab, the state tab, the filters (negated
 * ones under `not_`, where spec 2, 4.3 has `not[...]`), the order and the page. A bad value falls
 * back to its default, so a mangled bookmark still opens the list.
 */

export const MERGE_REQUEST_ORDERS = [
  { value: 'created_at', label: 'Created date' },
  { value: 'updated_at', label: 'Updated date' },
  { value: 'merged_at', label: 'Merged date' },
  { value: 'title', label: 'Title' },
] as const;
type Order = (typeof MERGE_REQUEST_ORDERS)[number]['value'];

/** The instance list's tabs: reviews asked of the caller, assigned to them, written by them. */
export const WHOSE_TABS = [
  { value: 'review_requested', label: 'Review requested from me' },
  { value: 'assigned_to_me', label: 'Assigned to me' },
  { value: 'created_by_me', label: 'Created by me' },
] as const;
type Whose = (typeof WHOSE_TABS)[number]['value'];

export const STATE_TABS = [
  { value: 'opened', label: 'Open' },
  { value: 'merged', label: 'Merged' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
] as const;
type State = (typeof STATE_TABS)[number]['value'];


export const mergeRequestsSearchSchema = searchSchema(() => z.object({
  /** The instance list's tab; groups and projects ignore it. */
  whose: withDefault(z.enum(WHOSE_TABS.map((tab) => tab.value) as [Whose, ...Whose[]]), 'review_requested'),
  state: withDefault(z.enum(STATE_TABS.map((tab) => tab.value) as [State, ...State[]]), 'opened'),
  author: optionalTextParam(),
  not_author: optionalTextParam(),
  /** A username, or `None` / `Any`. */
  assignee: optionalTextParam(),
  not_assignee: optionalTextParam(),
  /** A username, or `None` / `Any`. */
  reviewer: optionalTextParam(),
  not_reviewer: optionalTextParam(),
  /** Approved by every one of these usernames (up to 5), or `None` / `Any`. */
  approved_by: textListParam(),
  /** Every one of these usernames may approve (an approval rule names them), or `None` / `Any`. */
  approver: textListParam(),
  label: textListParam(),
  not_label: textListParam(),
  milestone: optionalTextParam(),
  not_milestone: optionalTextParam(),
  source_branch: optionalTextParam(),
  target_branch: optionalTextParam(),
  draft: z.catch(z.optional(z.enum(['yes', 'no'])), undefined),
  /** An emoji name the caller reacted with, or `None` / `Any`. */
  reaction: optionalTextParam(),
  not_reaction: optionalTextParam(),
  search: withDefault(z.string(), ''),
  order_by: withDefault(z.enum(MERGE_REQUEST_ORDERS.map((order) => order.value) as [Order, ...Order[]]), 'created_at'),
  sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
  ...pageParams(),
}));
export type MergeRequestsSearch = SearchOf<typeof mergeRequestsSearchSchema>;

/** Left out of the URL when equal, so a plain list has a plain address. */
export const MERGE_REQUESTS_SEARCH_DEFAULTS: Partial<MergeRequestsSearch> = {
  whose: 'review_requested', state: 'opened', approved_by: [], approver: [], label: [], not_label: [], search: '', order_by: 'created_at', sort: 'desc', page: 1, per_page: 20,
};

// -- filter tokens

export type MergeRequestTokenField =
  | 'author' | 'assignee' | 'reviewer' | 'approved_by' | 'approver' | 'label' | 'milestone' | 'source_branch' | 'target_branch' | 'draft' | 'reaction' | 'search';

const NONE_ANY = ['None', 'Any'] as const;

/** The merge request lists' filter bar (spec 2, 4.3): negatable where the API has `not[...]`. */
export const MERGE_REQUEST_TOKEN_FIELDS: ReadonlyArray<TokenFieldDef<MergeRequestTokenField>> = [
  { field: 'author', label: 'Author', negatable: true, many: false, suggest: 'users' },
  { field: 'assignee', label: 'Assignee', negatable: true, many: false, special: NONE_ANY, suggest: 'users' },
  { field: 'reviewer', label: 'Reviewer', negatable: true, many: false, special: NONE_ANY, suggest: 'users' },
  // spec 2, 4.3: approved_by_ids takes up to 5 users
  { field: 'approved_by', label: 'Approved by', negatable: false, many: true, max: 5, special: NONE_ANY, suggest: 'users' },
  { field: 'approver', label: 'Approver', negatable: false, many: true, special: NONE_ANY, suggest: 'users' },
  { field: 'label', label: 'Label', negatable: true, many: true, special: NONE_ANY, suggest: 'labels' },
  { field: 'milestone', label: 'Milestone', negatable: true, many: false, special: NONE_ANY, suggest: 'milestones' },
  { field: 'source_branch', label: 'Source branch', negatable: false, many: false, suggest: 'branches' },
  { field: 'target_branch', label: 'Target branch', negatable: false, many: false, suggest: 'branches' },
  { field: 'draft', label: 'Draft', negatable: false, many: false, choices: [{ value: 'yes', label: 'yes' }, { value: 'no', label: 'no' }] },
  { field: 'reaction', label: 'My reaction', negatable: true, many: false, special: NONE_ANY, placeholder: 'An emoji name, e.g. thumbsup' },
  { field: 'search', label: 'Search', negatable: false, many: false, placeholder: 'Words in title or description', empty: '' },
];

export type MergeRequestToken = FilterToken<MergeRequestTokenField>;

/** Tokens and the URL, one to one; any change of filters starts again at the first page. */
export const mergeRequestTokens = tokenModel<MergeRequestsSearch, MergeRequestTokenField>(MERGE_REQUEST_TOKEN_FIELDS, { page: 1 });

/** The URL keys of the filters (tabs, order and page are not filters). */
export const FILTER_KEYS = MERGE_REQUEST_TOKEN_FIELDS.flatMap(({ field, negatable }) => (negatable ? [field, `not_${field}`] : [field])) as ReadonlyArray<keyof MergeRequestsSearch>;

const person = (value: string | undefined, field: 'assignee' | 'reviewer'): NegatableMergeRequestFilters => {
  if (value === undefined) return {};
  // None and Any are the platform's words, sent as the id filter; names go as usernames
  if (value === 'None' || value === 'Any') return { [`${field}_id`]: value };
  return { [`${field}_username`]: value };
};

function negatable(search: MergeRequestsSearch, negated: boolean): NegatableMergeRequestFilters {
  const pick = <K extends 'author' | 'assignee' | 'reviewer' | 'milestone' | 'label' | 'reaction'>(field: K) => search[(negated ? `not_${field}` : field) as K];
  const labels = pick('label');
  const author = pick('author');
  const milestone = pick('milestone');
  const reaction = pick('reaction');
  return {
    ...(labels.length ? { labels } : {}),
    ...(author !== undefined ? { author_username: author } : {}),
    ...person(pick('assignee'), 'assignee'),
    ...person(pick('reviewer'), 'reviewer'),
    ...(milestone !== undefined ? { milestone } : {}),
    ...(reaction !== undefined ? { my_reaction_emoji: reaction } : {}),
  };
}

function idsOrNames(values: readonly string[]): { ids?: 'None' | 'Any'; names?: readonly string[] } {
  if (values.includes('None')) return { ids: 'None' };
  if (values.includes('Any')) return { ids: 'Any' };
  return values.length ? { names: values } : {};
}

/** What the list asks the API for: the tab as `scope` or `reviewer_username`, the filters, the order and the page. */
export function mergeRequestListParams(search: MergeRequestsSearch, instance: boolean, me: string | undefined): MergeRequestListParams {
  const filters: MergeRequestFilters = { ...negatable(search, false), state: search.state };
  if (instance) {
    // the platform has no "reviews for me" scope on every version: reviewer_username is the documented way
    if (search.whose === 'review_requested') {
      filters.scope = 'all';
      if (me && filters.reviewer_username === undefined && filters.reviewer_id === undefined) filters.reviewer_username = me;
    } else filters.scope = search.whose;
  }
  // the platform's None and Any go as the id filter; names as usernames (approver names are looked up as ids when asked: api/merge-requests.ts)
  const approvedBy = idsOrNames(search.approved_by);
  if (approvedBy.ids) filters.approved_by_ids = approvedBy.ids;
  if (approvedBy.names) filters.approved_by_usernames = approvedBy.names;
  const approvers = idsOrNames(search.approver);
  if (approvers.ids) filters.approver_ids = approvers.ids;
  if (approvers.names) filters.approver_usernames = approvers.names;
  if (search.draft) filters.wip = search.draft;
  if (search.search) filters.search = search.search;
  if (search.source_branch) filters.source_branch = search.source_branch;
  if (search.target_branch) filters.target_branch = search.target_branch;
  const not = negatable(search, true);
  if (Object.keys(not).length) filters.not = not;
  return { ...filters, order_by: search.order_by, sort: search.sort, page: search.page, per_page: search.per_page };
}

/** Whether any filter is set: an empty list then says so. */
export const isFiltered = mergeRequestTokens.isFiltered;

/** The search params with no filter: tabs, order and page size stay. */
export const clearFilters = mergeRequestTokens.clearTokens;

/** What the instance, group and project merge request routes share: the URL's schema and what the loader fetches. */
export const mergeRequestsRouteOptions = {
  validateSearch: mergeRequestsSearchSchema,
  loaderDeps: ({ search }: { search: MergeRequestsSearch }) => search,
};

// -- the board

/**
 * The merge request board in the URL: the list's own filters (the same schema, so a filter means
 * the same on both and moves between them), without the list's tabs, order and pages: the board
 * shows every open request, its columns are the states.
 */
export const mergeRequestBoardSearchSchema = searchSchema(() => z.omit(mergeRequestsSearchSchema.schema(), { whose: true, state: true, order_by: true, sort: true, page: true, per_page: true }));
export type MergeRequestBoardSearch = SearchOf<typeof mergeRequestBoardSearchSchema>;

export const MERGE_REQUEST_BOARD_SEARCH_DEFAULTS: Partial<MergeRequestBoardSearch> = { approved_by: [], approver: [], label: [], not_label: [], search: '' };

/** The filters of a list's search, for a link to the board with the same filters. */
export function boardSearchOf(search: MergeRequestsSearch): MergeRequestBoardSearch {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, search[key]])) as MergeRequestBoardSearch;
}

/** The board's filters as a list's search (the list's defaults for the rest): what the filter form and the list link take. */
export function listSearchOf(search: MergeRequestBoardSearch): MergeRequestsSearch {
  return mergeRequestsSearchSchema.schema().parse(search);
}

/**
 * What the board asks for: every open request with the filters, 100 a page (the API's most); on
 * the instance, the caller's review queue (every project, reviewer = the caller).
 */
export function boardListParams(search: MergeRequestBoardSearch, instance: boolean, me: string | undefined): Omit<MergeRequestListParams, 'page'> {
  const { page: _page, ...params } = mergeRequestListParams({ ...listSearchOf(search), whose: 'review_requested' }, instance, me);
  return { ...params, state: 'opened', order_by: 'updated_at', sort: 'desc', per_page: 100 };
}

/** The merged column's ask: the same filters, merged, touched since `since` (the board keeps those merged since then). */
export function boardMergedParams(search: MergeRequestBoardSearch, instance: boolean, me: string | undefined, since: Date): Omit<MergeRequestListParams, 'page'> {
  return { ...boardListParams(search, instance, me), state: 'merged', updated_after: since.toISOString() };
}
