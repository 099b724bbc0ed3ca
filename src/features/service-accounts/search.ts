import * as z from 'zod/mini';
import { pageParams, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import type { AccountListParams, AccountTokenListParams } from '../../api/service-accounts.ts';
import { ACCOUNT_SORTS, TOKEN_SORT_VALUES } from '../../api/vocabulary.ts';

/** A list of service accounts in the URL: the platform's order_by and sort (spec 1, 4.4). */
export const accountsSearchSchema = searchSchema(() => z.object({
  order_by: withDefault(z.enum(['id', 'username']), 'id'),
  sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
  ...pageParams(),
}));
export type AccountsSearch = SearchOf<typeof accountsSearchSchema>;

export const ACCOUNTS_SEARCH_DEFAULTS: Partial<AccountsSearch> = { order_by: 'id', sort: 'desc', page: 1, per_page: 20 };

export type AccountSort = (typeof ACCOUNT_SORTS)[number]['value'];

/** The one "Sort by" choice of the screen, from the URL's two params. */
export function accountSortOf(search: Pick<AccountsSearch, 'order_by' | 'sort'>): AccountSort {
  return `${search.order_by}_${search.sort}`;
}

export function accountSortParams(sort: AccountSort): Pick<AccountsSearch, 'order_by' | 'sort'> {
  const [orderBy, direction] = sort.split('_') as [AccountsSearch['order_by'], AccountsSearch['sort']];
  return { order_by: orderBy, sort: direction };
}

export function accountListParams(search: AccountsSearch): AccountListParams {
  return { ...search };
}

/** A service account's tokens in the URL. */
export const accountTokensSearchSchema = searchSchema(() => z.object({
  state: z.catch(z.optional(z.enum(['active', 'inactive'])), undefined),
  revoked: z.catch(z.optional(z.boolean()), undefined),
  search: withDefault(z.string(), ''),
  sort: withDefault(z.enum(TOKEN_SORT_VALUES), 'created_desc'),
  ...pageParams(),
}));
export type AccountTokensSearch = SearchOf<typeof accountTokensSearchSchema>;

export const ACCOUNT_TOKENS_SEARCH_DEFAULTS: Partial<AccountTokensSearch> = { search: '', sort: 'created_desc', page: 1, per_page: 20 };

export function accountTokenListParams(search: AccountTokensSearch): AccountTokenListParams {
  return { ...search };
}
