import * as z from 'zod/mini';
import { searchSchema, type SearchOf } from '../../lib/search-params.ts';

/** A blame view in the URL: the ref (empty means the project's default branch); the line or range lives in the hash. */
export const blameSearchSchema = searchSchema(() => z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
}));
export type BlameSearch = SearchOf<typeof blameSearchSchema>;

/** Left out of the URL when equal. */
export const BLAME_SEARCH_DEFAULTS: Partial<BlameSearch> = { ref: '' };
