import * as z from 'zod/mini';

/** A search param that falls back to `fallback` when absent or invalid: a bad link still opens the list. */
export const withDefault = <T extends z.ZodMiniType>(schema: T, fallback: z.output<T>) => z.catch(z._default(schema, fallback as never), fallback as never);

/** The page and page size of an offset list, as every list keeps them in its URL. */
export const pageParams = {
  page: withDefault(z.number().check(z.int(), z.minimum(1)), 1),
  per_page: withDefault(z.union([z.literal(20), z.literal(50), z.literal(100)]), 20),
};
