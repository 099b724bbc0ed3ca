import type { QueryClient } from '@tanstack/react-query';
import { accessTokensQueries } from '../../api/access-tokens.ts';
import { prefetchGroup } from '../../api/groups.ts';
import type { Connection } from '../../api/http.ts';
import { ensureMyAccess } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { tokenListParams, type TokensSearch } from './search.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

/** Only Owners (and administrators) may list a group's access tokens (spec 1, 4.2). */
export const TOKENS_ROLE = AccessLevel.OWNER;

/**
 * The list blocks the first paint, for those allowed to see it: anyone else's role is read first
 * (the shell usually has it cached), so the screen says which role it needs instead of a 401.
 */
export async function loadGroupTokens(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, groupId: number, search: TokensSearch) {
  prefetchGroup(context, groupId);
  const caller = await ensureMyAccess(context, { group: groupId });
  if (!caller.isAdmin && caller.role < TOKENS_ROLE) return undefined;
  return context.queryClient.ensureQueryData(accessTokensQueries.list(context.api, groupId, tokenListParams(search)));
}
