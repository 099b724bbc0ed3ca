import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { searchSchema, withDefault } from '../../lib/search-params.ts';
import { ExpiryOverviewScreen, type ExpirySearch } from '../../features/access-tokens/expiry-overview.tsx';

const expirySearchSchema = searchSchema(() => z.object({
  reason: z.catch(z.optional(z.enum(['expired', 'within_7_days', 'within_30_days', 'never_used'])), undefined),
  everywhere: withDefault(z.boolean(), false),
}));

const EXPIRY_DEFAULTS: Partial<ExpirySearch> = { everywhere: false };

// no loader: the scan reports its progress on screen as it reads group after group
export const Route = createFileRoute('/access-tokens/expiry')({
  validateSearch: expirySearchSchema,
  search: { middlewares: [stripSearchParams(EXPIRY_DEFAULTS)] },
  component: ExpiryRoute,
});

function ExpiryRoute() {
  return <ExpiryOverviewScreen search={Route.useSearch()} />;
}
