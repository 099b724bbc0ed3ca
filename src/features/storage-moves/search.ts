import * as z from 'zod/mini';

const withDefault = <T extends z.ZodMiniType>(schema: T, fallback: z.output<T>) => z.catch(z._default(schema, fallback as never), fallback as never);

/** The moves list in the URL: the platform offers pages only. */
export const movesSearchSchema = z.object({
  page: withDefault(z.number().check(z.int(), z.minimum(1)), 1),
  per_page: withDefault(z.union([z.literal(20), z.literal(50), z.literal(100)]), 20),
});
export type MovesSearch = z.output<typeof movesSearchSchema>;

export const MOVES_SEARCH_DEFAULTS: Partial<MovesSearch> = { page: 1, per_page: 20 };
