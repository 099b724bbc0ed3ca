import * as z from 'zod/mini';
import { searchSchema, type SearchOf } from '../../lib/search-params.ts';

export const userSearchSchema = searchSchema(() => z.object({
  tab: z.catch(z._default(z.enum(['followers', 'following']), 'followers'), 'followers'),
  page: z.catch(z._default(z.number().check(z.int(), z.minimum(1)), 1), 1),
  per_page: z.catch(z._default(z.union([z.literal(20), z.literal(50), z.literal(100)]), 20), 20),
}));
export type UserSearch = SearchOf<typeof userSearchSchema>;

export const USER_SEARCH_DEFAULTS: Partial<UserSearch> = { tab: 'followers', page: 1, per_page: 20 };
