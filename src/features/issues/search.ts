import * as z from 'zod/mini';
import { pageParams, withDefault } from '../../lib/search-params.ts';
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

const text = withDefault(z.string(), '');
const texts = withDefault(z.array(z.string().check(z.minLength(1))), []);
const iids = withDefault(z.array(z.number().check(z.int(), z.positive())), []);
const optionalText = z.catch(z.optional(z.string().check(z.minLength(1))), undefined);

export const issuesSearchSchema = z.object({
  /** The instance list's tab; groups and projects ignore it. */
  scope: withDefault(z.enum(['assigned_to_me', 'created_by_me', 'all']), 'assigned_to_me'),
  state: withDefault(z.enum(['opened', 'closed', 'all']), 'opened'),
  label: texts,
  not_label: texts,
  milestone: optionalText,
  not_milestone: optionalText,
  /** A username, or `None` / `Any`. */
  assignee: texts,
  not_assignee: texts,
  author: optionalText,
  not_author: optionalText,
  reaction: optionalText,
  not_reaction: optionalText,
  iid: iids,
  not_iid: iids,
  search: text,
  in: z.catch(z.optional(z.enum(['title', 'description'])), undefined),
  confidential: z.catch(z.optional(z.boolean()), undefined),
  due: z.catch(z.optional(z.enum(DUE_DATES.map((due) => due.value) as [DueDateFilter, ...DueDateFilter[]])), undefined),
  type: z.catch(z.optional(z.enum(ISSUE_TYPES)), undefined),
  /** A project's keyset page (creation or update order): the cursor of the page's next link before it. */
  cursor: z.catch(z.optional(z.string().check(z.minLength(1))), undefined),
  order_by: withDefault(z.enum(ISSUE_ORDERS.map((order) => order.value) as [IssueOrder, ...IssueOrder[]]), 'created_at'),
  sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
  ...pageParams,
});
export type IssuesSearch = z.output<typeof issuesSearchSchema>;

/** Left out of the URL when equal, so a plain list has a plain address. */
export const ISSUES_SEARCH_DEFAULTS: Partial<IssuesSearch> = {
  scope: 'assigned_to_me', state: 'opened', label: [], not_label: [], assignee: [], not_assignee: [], iid: [], not_iid: [], search: '',
  order_by: 'created_at', sort: 'desc', page: 1, per_page: 20,
};

// -- filter tokens

export type TokenField = 'label' | 'milestone' | 'assignee' | 'author' | 'reaction' | 'iid' | 'search' | 'confidential' | 'due' | 'type';

/** One filter as the bar shows it: `label is not wontfix`. */
export interface FilterToken {
  field: TokenField;
  negated: boolean;
  value: string;
}

export const TOKEN_FIELDS: ReadonlyArray<{ field: TokenField; label: string; negatable: boolean; many: boolean }> = [
  { field: 'label', label: 'Label', negatable: true, many: true },
  { field: 'milestone', label: 'Milestone', negatable: true, many: false },
  { field: 'assignee', label: 'Assignee', negatable: true, many: true },
  { field: 'author', label: 'Author', negatable: true, many: false },
  { field: 'reaction', label: 'My reaction', negatable: true, many: false },
  { field: 'iid', label: 'IID', negatable: true, many: true },
  { field: 'search', label: 'Search', negatable: false, many: false },
  { field: 'confidential', label: 'Confidential', negatable: false, many: false },
  { field: 'due', label: 'Due date', negatable: false, many: false },
  { field: 'type', label: 'Type', negatable: false, many: false },
];

export function fieldInfo(field: TokenField) {
  return TOKEN_FIELDS.find((info) => info.field === field)!;
}

/** The values that are words of the platform rather than names: they read as such in a token. */
export const SPECIAL_VALUES: Partial<Record<TokenField, readonly string[]>> = {
  label: ['None', 'Any'],
  milestone: ['None', 'Any', 'Upcoming', 'Started'],
  assignee: ['None', 'Any'],
};

type ListKey = 'label' | 'assignee' | 'iid';
type SingleKey = 'milestone' | 'author' | 'reaction';

/** The filter tokens a URL holds, in the bar's order. */
export function tokensFromSearch(search: IssuesSearch): FilterToken[] {
  const tokens: FilterToken[] = [];
  for (const { field } of TOKEN_FIELDS) {
    if (field === 'label' || field === 'assignee' || field === 'iid') {
      for (const negated of [false, true]) {
        const values: ReadonlyArray<string | number> = search[(negated ? `not_${field}` : field) as ListKey];
        for (const value of values) tokens.push({ field, negated, value: String(value) });
      }
    } else if (field === 'milestone' || field === 'author' || field === 'reaction') {
      for (const negated of [false, true]) {
        const value = search[(negated ? `not_${field}` : field) as SingleKey];
        if (value !== undefined) tokens.push({ field, negated, value });
      }
    } else if (field === 'search') {
      if (search.search) tokens.push({ field, negated: false, value: search.search });
    } else if (field === 'confidential') {
      if (search.confidential !== undefined) tokens.push({ field, negated: false, value: search.confidential ? 'yes' : 'no' });
    } else if (field === 'due') {
      if (search.due !== undefined) tokens.push({ field, negated: false, value: search.due });
    } else if (search.type !== undefined) {
      tokens.push({ field, negated: false, value: search.type });
    }
  }
  return tokens;
}

/** Why a token's value cannot be a filter; undefined when it can. */
export function tokenProblem(token: FilterToken): string | undefined {
  const value = token.value.trim();
  if (!value) return 'Enter a value.';
  if (token.negated && !fieldInfo(token.field).negatable) return `${fieldInfo(token.field).label} cannot be negated.`;
  if (token.field === 'iid' && !/^[1-9]\d*$/.test(value)) return 'An IID is a whole number above 0.';
  if (token.field === 'confidential' && value !== 'yes' && value !== 'no') return 'Choose yes or no.';
  if (token.field === 'due' && !DUE_DATES.some((due) => due.value === value)) return 'Choose one of the due date filters.';
  if (token.field === 'type' && !(ISSUE_TYPES as readonly string[]).includes(value)) return `A type is one of ${ISSUE_TYPES.join(', ')}.`;
  return undefined;
}

/** The search params with one more filter (a single-valued field replaces its value); back to page 1. */
export function addToken(search: IssuesSearch, token: FilterToken): IssuesSearch {
  const value = token.value.trim();
  const key = token.negated ? `not_${token.field}` : token.field;
  const next = { ...search, page: 1, cursor: undefined } as IssuesSearch & Record<string, unknown>;
  if (token.field === 'iid') {
    const list = next[key as 'iid'];
    if (!list.includes(Number(value))) next[key] = [...list, Number(value)];
  } else if (token.field === 'label' || token.field === 'assignee') {
    const list = next[key as 'label'];
    // None and Any stand alone: they replace names, and a name replaces them
    const special = SPECIAL_VALUES[token.field]!.includes(value);
    const kept = special ? [] : list.filter((item) => !SPECIAL_VALUES[token.field]!.includes(item));
    if (!kept.includes(value)) next[key] = [...kept, value];
    else next[key] = kept;
  } else if (token.field === 'confidential') next.confidential = value === 'yes';
  else next[key] = value;
  return next;
}

/** The search params without one filter; back to page 1. */
export function removeToken(search: IssuesSearch, token: FilterToken): IssuesSearch {
  const key = token.negated ? `not_${token.field}` : token.field;
  const next = { ...search, page: 1, cursor: undefined } as IssuesSearch & Record<string, unknown>;
  if (token.field === 'iid') next[key] = next[key as 'iid'].filter((item) => String(item) !== token.value);
  else if (token.field === 'label' || token.field === 'assignee') next[key] = next[key as 'label'].filter((item) => item !== token.value);
  else if (token.field === 'search') next.search = '';
  else next[key] = undefined;
  return next;
}

/** The search params with no filter at all: tabs, order and page size stay. */
export function clearTokens(search: IssuesSearch): IssuesSearch {
  return tokensFromSearch(search).reduce(removeToken, search);
}

/** How a token reads: `label is not wontfix`. */
export function tokenText(token: FilterToken): string {
  const info = fieldInfo(token.field);
  const value = token.field === 'due' ? (DUE_DATES.find((due) => due.value === token.value)?.label ?? token.value) : token.value;
  return `${info.label.toLowerCase()} ${token.negated ? 'is not' : 'is'} ${value}`;
}

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
export function isFiltered(search: IssuesSearch): boolean {
  return tokensFromSearch(search).length > 0;
}

/** What the instance, group and project issue routes share: the URL's schema and what the loader fetches. */
export const issuesRouteOptions = {
  validateSearch: issuesSearchSchema,
  loaderDeps: ({ search }: { search: IssuesSearch }) => search,
};
