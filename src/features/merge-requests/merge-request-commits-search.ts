import * as z from 'zod/mini';
import { pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';

/** The Commits tab's page in the URL (a hundred commits a page); a bad value falls back to the first page. */
export const mergeRequestCommitsSearchSchema = searchSchema(() => z.object({ page: pageParams().page }));
export type MergeRequestCommitsSearch = SearchOf<typeof mergeRequestCommitsSearchSchema>;
