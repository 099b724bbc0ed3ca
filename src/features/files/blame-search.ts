import * as z from 'zod/mini';

/** A blame view in the URL: the ref (empty means the project's default branch); the line or range lives in the hash. */
export const blameSearchSchema = z.object({
  ref: z.catch(z._default(z.string(), ''), ''),
});
export type BlameSearch = z.output<typeof blameSearchSchema>;

/** Left out of the URL when equal. */
export const BLAME_SEARCH_DEFAULTS: Partial<BlameSearch> = { ref: '' };
