import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { SessionStore } from '../../api/session.ts';
import { systemHooksQueries } from '../../api/system-hooks.ts';
import type { HooksSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

// a non-administrator gets the screen's note, not a 403 from the instance
const isAdmin = (context: LoaderContext) => Boolean(context.session.getActive()?.connection.isAdmin);

export function loadHooks(context: LoaderContext, search: HooksSearch) {
  return isAdmin(context) ? context.queryClient.ensureQueryData(systemHooksQueries.list(context.api, search)) : null;
}

/** The hook; its delivery log loads beside it and may be missing on a real instance. */
export function loadHook(context: LoaderContext, hookId: number) {
  if (!isAdmin(context)) return null;
  void context.queryClient.prefetchQuery(systemHooksQueries.deliveries(context.api, hookId));
  return context.queryClient.ensureQueryData(systemHooksQueries.detail(context.api, hookId));
}
