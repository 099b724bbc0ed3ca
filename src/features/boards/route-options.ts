import type { QueryClient } from '@tanstack/react-query';
import { boardsQueries } from '../../api/boards.ts';
import { issuesQueries } from '../../api/issues.ts';
import type { Connection } from '../../api/http.ts';
import type { Scope } from '../../api/keys.ts';
import { boardColumns } from './columns.ts';


/**
 * The boards (with their lists) block the first paint; the first page of every column of the
 * shown board is asked for at once, not after the columns have rendered.
 */
export async function loadBoards(context: { queryClient: QueryClient; api: Connection }, scope: Scope, boardId: number | undefined) {
  const boards = await context.queryClient.ensureQueryData(boardsQueries.list(context.api, scope));
  const board = boards.items.find((item) => item.id === boardId) ?? boards.items[0];
  if (board) for (const column of boardColumns(board)) void context.queryClient.prefetchInfiniteQuery(issuesQueries.pages(context.api, scope, column.filter));
  return boards;
}
