import * as z from 'zod/mini';
import { pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';

/** The moves list in the URL: the platform offers pages only. */
export const movesSearchSchema = searchSchema(() => z.object({
  ...pageParams(),
}));
export type MovesSearch = SearchOf<typeof movesSearchSchema>;

export const MOVES_SEARCH_DEFAULTS: Partial<MovesSearch> = { page: 1, per_page: 20 };
