import * as z from 'zod/mini';
import { searchSchema, type SearchOf } from '../../lib/search-params.ts';

/**
 * The ref of a files screen in the URL: a branch, tag or commit sha; empty means the project's
 * default branch (so a plain address follows it).
 */
export const refSearchSchema = searchSchema(() => z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
}));
export type RefSearch = SearchOf<typeof refSearchSchema>;

/** Left out of the URL when equal. */
export const REF_SEARCH_DEFAULTS: Partial<RefSearch> = { ref: '' };

/** The multi-file commit screen: the ref it starts from and the directory the user came from. */
export const changesSearchSchema = searchSchema(() => z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
  path: z.catch(z._default(z.string(), ''), ''),
}));
export type ChangesSearch = SearchOf<typeof changesSearchSchema>;

export const CHANGES_SEARCH_DEFAULTS: Partial<ChangesSearch> = { ref: '', path: '' };
