import { tokenModel, type FilterToken as GenericFilterToken, type TokenFieldDef } from '../../lib/filter-tokens.ts';
import * as z from 'zod/mini';
import { optionalTextParam, pageParams, searchSchema, textListParam, withDefault, type SearchOf } from '../../lib/search-params.ts';
import { KEYSET_ISSUE_ORDERS } from '../../api/vocabulary.ts';
import type { DueDateFilter, IssueFilters, IssueListParams, IssueOrder, IssueScope, IssueState, NegatableIssueFilters } from '../../api/issues.ts';

/**
 * An issue list in the URL: the state tab, the instance's scope tab, every filter of the filter
 * bar (negated ones under `not_`), the order and the page. A bad value falls back to its default,
 * so a mangled bookmark still opens the list.
 */

export const ISSUE_ORDERS: ReadonlyArray<{ value: IssueOrder; label: string }> = [
  { value: 'created_at', label: 'Created date' },
  { value: 'updated_at', label: 'Updated date' },
  { value: 'priority', label: 'Milestone priority' },
  { value: 'label_priority', label: 'Label priority' },
  { value: 'milestone_due', label: 'Milestone due date' },
  { value: 'due_date', label: 'Due date' },
  { value: 'popularity', label: 'Popularity' },
  { value: 'relative_position', label: 'Manual' },
  { value: 'weight', label: 'Weight' },
  { value: 'title', label: 'Title' },
];

export const DUE_DATES: ReadonlyArray<{ value: DueDateFilter; label: string }> = [
  { value: '0', label: 'No due date' },
  { value: 'any', label: 'Any due date' },
  { value: 'today', label: 'Today' },
  { value: 'tomorrow', label: 'Tomorrow' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'week', label: 'This week' },
  { value: 'month', label: 'This month' },
  { value: 'next_month_and_previous_two_weeks', label: 'Next month and previous two weeks' },
];

export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;

const iids = () => withDefault(z.array(z.number().check(z.int(), z.positive())), []);

export const issuesSearchSchema = searchSchema(() => z.object({
  /** The instance list's tab; groups and projects ignore it. */
  scope: withDefault(z.enum(['assigned_to_me', 'created_by_me', 'all']), 'assigned_to_me'),
  state: withDefault(z.enum(['opened', 'closed', 'all']), 'opened'),
  label: textListParam(),
  not_label: textListParam(),
  milestone: optionalTextParam(),
  not_milestone: optionalTextParam(),
  /** A username, or `None` / `Any`. */
  assignee: textListParam(),
  not_assignee: textListParam(),
  author: optionalTextParam(),
  not_author: optionalTextParam(),
  reaction: optionalTextParam(),
  not_reaction: optionalTextParam(),
  iid: iids(),
  not_iid: iids(),
  search: withDefault(z.string(), ''),
  in: z.catch(z.optional(z.enum(['title', 'description'])), undefined),
  confidential: z.catch(z.optional(z.boolean()), undefined),
  due: z.catch(z.optional(z.enum(DUE_DATES.map((due) => due.value) as [DueDateFilter, ...DueDateFilter[]])), undefined),
  type: z.catch(z.optional(z.enum(ISSUE_TYPES)), undefined),
  /** A project's keyset page (creation or update order): the cursor of the page's next link before it. */
  cursor: optionalTextParam(),
  order_by: withDefault(z.enum(ISSUE_ORDERS.map((order) => order.value) as [IssueOrder, ...IssueOrder[]]), 'created_at'),
  sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
  ...pageParams(),
}));
export type IssuesSearch = SearchOf<typeof issuesSearchSchema>;

/** Left out of the URL when equal, so a plain list has a plain address. */
export const ISSUES_SEARCH_DEFAULTS: Partial<IssuesSearch> = {
  scope: 'assigned_to_me', state: 'opened', label: [], not_label: [], assignee: [], not_assignee: [], iid: [], not_iid: [], search: '',
  order_by: 'created_at', sort: 'desc', page: 1, per_page: 20,
};

// -- filter tokens

export type TokenField = 'label' | 'milestone' | 'assignee' | 'author' | 'reaction' | 'iid' | 'search' | 'confidential' | 'due' | 'type';

/** One filter as the bar shows it: `label is not wontfix`. */
export type FilterToken = GenericFilterToken<TokenField>;

/** The values that are words of the platform rather than names: they read as such in a token. */
export const SPECIAL_VALUES: Partial<Record<TokenField, readonly string[]>> = {
  label: ['None', 'Any'],
  milestone: ['None', 'Any', 'Upcoming', 'Started'],
  assignee: ['None', 'Any'],
};

/** The issue lists' filter bar: every field of the URL, in the bar's order. */
export const TOKEN_FIELDS: ReadonlyArray<TokenFieldDef<TokenField>> = [
  { field: 'label', label: 'Label', negatable: true, many: true, special: SPECIAL_VALUES.label, suggest: 'labels' },
  { field: 'milestone', label: 'Milestone', negatable: true, many: false, special: SPECIAL_VALUES.milestone, suggest: 'milestones' },
  { field: 'assignee', label: 'Assignee', negatable: true, many: true, special: SPECIAL_VALUES.assignee, suggest: 'users' },
  { field: 'author', label: 'Author', negatable: true, many: false, suggest: 'users' },
  { field: 'reaction', label: 'My reaction', negatable: true, many: false },
  {
    field: 'iid', label: 'IID', negatable: true, many: true, numeric: true, placeholder: 'e.g. 12',
    check: (value) => (/^[1-9]\d*$/.test(value) ? undefined : 'An IID is a whole number above 0.'),
    toUrl: Number,
  },
  { field: 'search', label: 'Search', negatable: false, many: false, placeholder: 'Words in title or description', empty: '' },
  {
    field: 'confidential', label: 'Confidential', negatable: false, many: false,
    choices: [{ value: 'yes', label: 'yes' }, { value: 'no', label: 'no' }],
    check: (value) => (value === 'yes' || value === 'no' ? undefined : 'Choose yes or no.'),
    toUrl: (value) => value === 'yes',
    fromUrl: (value) => (value ? 'yes' : 'no'),
  },
  {
    field: 'due', label: 'Due date', negatable: false, many: false, choices: DUE_DATES,
    check: (value) => (DUE_DATES.some((due) => due.value === value) ? undefined : 'Choose one of the due date filters.'),
  },
  {
    field: 'type', label: 'Type', negatable: false, many: false, choices: ISSUE_TYPES.map((type) => ({ value: type, label: type })),
    check: (value) => ((ISSUE_TYPES as readonly string[]).includes(value) ? undefined : `A type is one of ${ISSUE_TYPES.join(', ')}.`),
  },
];

/** Tokens and the URL, one to one; any change of filters starts again at the first page. */
export const issueTokens = tokenModel<IssuesSearch, TokenField>(TOKEN_FIELDS, { page: 1, cursor: undefined });

export const { fieldInfo, tokensFromSearch, tokenProblem, addToken, removeToken, clearTokens, tokenText } = issueTokens;

type ListKey = 'label' | 'assignee' | 'iid';
type SingleKey = 'milestone' | 'author' | 'reaction';

function assigneeFilters(values: readonly string[]): Pick<NegatableIssueFilters, 'assignee_id' | 'assignee_username'> {
  const special = values.find((value) => value === 'None' || value === 'Any') as 'None' | 'Any' | undefined;
  return special ? { assignee_id: special } : values.length ? { assignee_username: values } : {};
}

function negatable(search: IssuesSearch, negated: boolean): NegatableIssueFilters {
  const pick = <K extends ListKey | SingleKey>(field: K) => search[(negated ? `not_${field}` : field) as K];
  const labels = pick('label');
  const ids = pick('iid');
  const filters: NegatableIssueFilters = {
    ...(labels.length ? { labels } : {}),
    ...assigneeFilters(pick('assignee')),
    ...(ids.length ? { iids: ids } : {}),
  };
  const milestone = pick('milestone');
  const author = pick('author');
  const reaction = pick('reaction');
  if (milestone !== undefined) filters.milestone = milestone;
  if (author !== undefined) filters.author_username = author;
  if (reaction !== undefined) filters.my_reaction_emoji = reaction;
  return filters;
}

/** The URL's filters as the API's (state included; the statistics leave it out themselves). */
export function issueFilters(search: IssuesSearch, instance: boolean): IssueFilters {
  const not = negatable(search, true);
  const filters: IssueFilters = { ...negatable(search, false), state: search.state as IssueState };
  if (instance) filters.scope = search.scope;
  if (search.search) {
    filters.search = search.search;
    if (search.in) filters.in = search.in;
  }
  if (search.confidential !== undefined) filters.confidential = search.confidential;
  if (search.due !== undefined) filters.due_date = search.due;
  if (search.type !== undefined) filters.issue_type = search.type;
  if (Object.keys(not).length) filters.not = not;
  return filters;
}

/** A project's list in creation or update order pages by keyset, as the platform does; others by page number. */
export function pagesByKeyset(scope: IssueScope, search: Pick<IssuesSearch, 'order_by'>): scope is { project: number } {
  return scope !== 'instance' && 'project' in scope && KEYSET_ISSUE_ORDERS.includes(search.order_by);
}

/** What the list query takes from the URL: the filters, the order and the page. */
export function issueListParams(search: IssuesSearch, instance: boolean): IssueListParams {
  return { ...issueFilters(search, instance), order_by: search.order_by, sort: search.sort, page: search.page, per_page: search.per_page };
}

/** Whether any filter of the bar is set (tabs are not filters): an empty list then says so. */
export const isFiltered = issueTokens.isFiltered;

/** What the instance, group and project issue routes share: the URL's schema and what the loader fetches. */
export const issuesRouteOptions = {
  validateSearch: issuesSearchSchema,
  loaderDeps: ({ search }: { search: IssuesSearch }) => search,
};
