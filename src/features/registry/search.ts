import { searchSchema, pageParams, type SearchOf } from '../../lib/search-params.ts';
import * as z from 'zod/mini';

/** A project's or group's registry: an offset list of repositories. */
export const repositoriesSearchSchema = searchSchema(() => z.object({ ...pageParams() }));
export type RepositoriesSearch = SearchOf<typeof repositoriesSearchSchema>;
export const REPOSITORIES_SEARCH_DEFAULTS: Partial<RepositoriesSearch> = { page: 1, per_page: 20 };
