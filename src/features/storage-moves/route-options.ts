import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { SessionStore } from '../../api/session.ts';
import { storageMovesQueries } from '../../api/storage-moves.ts';
import type { MovesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

// a non-administrator gets the screen's note, not a 403 from the instance
const isAdmin = (context: LoaderContext) => Boolean(context.session.getActive()?.connection.isAdmin);

export function loadMoves(context: LoaderContext, search: MovesSearch) {
  return isAdmin(context) ? context.queryClient.ensureQueryData(storageMovesQueries.projectMoves(context.api, search)) : null;
}
