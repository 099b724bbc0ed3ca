import { useMemo } from 'react';
import { useRouterState } from '@tanstack/react-router';
import * as z from 'zod/mini';
import type { SearchSchema } from '../lib/search-params.ts';

/**
 * The search params the user just asked for, before the list they lead to has loaded: filter
 * controls show these, so a clicked box stays ticked while the old rows stay on screen.
 */
export function useRequestedSearch<S extends z.ZodMiniType>(schema: SearchSchema<S>, loaded: z.output<S>): z.output<S> {
  const requested = useRouterState({ select: (state) => state.location.search });
  return useMemo(() => {
    const parsed = z.safeParse(schema.schema(), requested);
    return parsed.success ? parsed.data : loaded;
  }, [schema, requested, loaded]);
}
