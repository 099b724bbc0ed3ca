import * as z from 'zod/mini';

/** The board in the URL (`?board=12`); absent or not a board id: the first board. */
export const boardSearchSchema = z.object({
  board: z.catch(z.optional(z.number().check(z.int(), z.positive())), undefined),
});
export type BoardSearch = z.output<typeof boardSearchSchema>;
