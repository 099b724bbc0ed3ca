import * as z from 'zod/mini';
import { pageParams } from '../../lib/search-params.ts';

/** The hooks list in the URL: the platform offers pages only. */
export const hooksSearchSchema = z.object({
  ...pageParams,
});
export type HooksSearch = z.output<typeof hooksSearchSchema>;

export const HOOKS_SEARCH_DEFAULTS: Partial<HooksSearch> = { page: 1, per_page: 20 };
