import { queryOptions } from '@tanstack/react-query';
import { re2Problem } from '../../lib/re2.ts';

/** RE2's verdict on a branch regex, cached for good: a pattern RE2 refuses is never sent. */
export const regexCheckQuery = (pattern: string) =>
  queryOptions({ queryKey: ['branches', 're2-check', pattern] as const, queryFn: () => re2Problem(pattern), staleTime: Infinity });
