import * as z from 'zod/mini';
import { searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';

/**
 * The Changes tab in the URL: unified (`inline`) or side-by-side (`parallel`) lines, whitespace-only
 * changes shown or hidden, and the file picked in the tree. The platform's own words for the
 * views; a bad value falls back to its default, and defaults are left out of the URL.
 */
export const diffSearchSchema = searchSchema(() => z.object({
  view: withDefault(z.enum(['inline', 'parallel']), 'inline'),
  whitespace: withDefault(z.enum(['show', 'hide']), 'show'),
  file: withDefault(z.string(), ''),
}));
export type DiffSearch = SearchOf<typeof diffSearchSchema>;

export const DIFF_SEARCH_DEFAULTS: DiffSearch = { view: 'inline', whitespace: 'show', file: '' };
