import * as z from 'zod/mini';
import { withDefault, pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import type { TokenListParams } from '../../api/access-tokens.ts';
import { TOKEN_SORT_VALUES } from '../../api/vocabulary.ts';

const optionalDate = () => z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);

/** A group's tokens view in the URL: every filter and sort of spec 1, 4.2. */
export const tokensSearchSchema = searchSchema(() => z.object({
  state: z.catch(z.optional(z.enum(['active', 'inactive'])), undefined),
  revoked: z.catch(z.optional(z.boolean()), undefined),
  search: withDefault(z.string(), ''),
  sort: withDefault(z.enum(TOKEN_SORT_VALUES), 'created_desc'),
  created_after: optionalDate(),
  created_before: optionalDate(),
  expires_after: optionalDate(),
  expires_before: optionalDate(),
  last_used_after: optionalDate(),
  last_used_before: optionalDate(),
  ...pageParams(),
}));
export type TokensSearch = SearchOf<typeof tokensSearchSchema>;

export const TOKENS_SEARCH_DEFAULTS: Partial<TokensSearch> = { search: '', sort: 'created_desc', page: 1, per_page: 20 };

/** The list's parameters; date filters are whole days, sent as the start of the day in UTC. */
export function tokenListParams(search: TokensSearch): TokenListParams {
  const dayTime = (day: string | undefined) => (day ? `${day}T00:00:00Z` : undefined);
  return {
    ...search,
    created_after: dayTime(search.created_after),
    created_before: dayTime(search.created_before),
    last_used_after: dayTime(search.last_used_after),
    last_used_before: dayTime(search.last_used_before),
  };
}
