import * as z from 'zod/mini';
import { pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';

/** The hooks list in the URL: the platform offers pages only. */
export const hooksSearchSchema = searchSchema(() => z.object({
  ...pageParams(),
}));
export type HooksSearch = SearchOf<typeof hooksSearchSchema>;

export const HOOKS_SEARCH_DEFAULTS: Partial<HooksSearch> = { page: 1, per_page: 20 };
