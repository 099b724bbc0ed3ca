import * as z from 'zod/mini';
import { searchSchema, type SearchOf } from '../../lib/search-params.ts';

/** The board in the URL (`?board=12`); absent or not a board id: the first board. */
export const boardSearchSchema = searchSchema(() => z.object({
  board: z.catch(z.optional(z.number().check(z.int(), z.positive())), undefined),
}));
export type BoardSearch = SearchOf<typeof boardSearchSchema>;
