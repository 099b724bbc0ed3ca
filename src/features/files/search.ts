import * as z from 'zod/mini';

/**
 * The ref of a files screen in the URL: a branch, tag or commit sha; empty means the project's
 * default branch (so a plain address follows it).
 */
export const refSearchSchema = z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
});
export type RefSearch = z.output<typeof refSearchSchema>;

/** Left out of the URL when equal. */
export const REF_SEARCH_DEFAULTS: Partial<RefSearch> = { ref: '' };

/** The multi-file commit screen: the ref it starts from and the directory the user came from. */
export const changesSearchSchema = z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
  path: z.catch(z._default(z.string(), ''), ''),
});
export type ChangesSearch = z.output<typeof changesSearchSchema>;

export const CHANGES_SEARCH_DEFAULTS: Partial<ChangesSearch> = { ref: '', path: '' };
