import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { scopePath, type Scope } from './keys.ts';
import { flag, loose } from './schema.ts';
import { labelBasicSchema } from './labels.ts';
import { milestoneSchema } from './milestones.ts';
import { userSummarySchema } from './users.ts';

/** A column of a board: a label, an assignee or a milestone (Open and Closed are not lists). */
export const boardListSchema = loose({
  id: z.number(),
  list_type: z.nullish(z.string()),
  position: z.nullish(z.number()),
  label: z.nullish(labelBasicSchema),
  assignee: z.nullish(z.pick(userSummarySchema, { id: true, username: true, name: true, avatar_url: true })),
  milestone: z.nullish(milestoneSchema),
});
export type BoardList = z.infer<typeof boardListSchema>;

export const boardSchema = loose({
  id: z.number(),
  name: z.nullish(z.string()),
  hide_backlog_list: flag,
  hide_closed_list: flag,
  lists: z.pipe(z.nullish(z.array(boardListSchema)), z.transform((lists) => [...(lists ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)))),
});
export type Board = z.infer<typeof boardSchema>;

export const boardsQueries = {
  all: () => ['boards'] as const,
  scope: (scope: Scope) => [...boardsQueries.all(), scope] as const,
  list: (connection: Connection, scope: Scope) =>
    queryOptions({
      queryKey: [...boardsQueries.scope(scope), 'list'] as const,
      queryFn: ({ signal }) => requestPage(connection, `${scopePath(scope)}/boards`, boardSchema, { query: { per_page: 100, page: 1 }, signal }),
    }),
  detail: (connection: Connection, scope: Scope, boardId: number) =>
    queryOptions({
      queryKey: [...boardsQueries.scope(scope), 'detail', boardId] as const,
      queryFn: ({ signal }) => request(connection, `${scopePath(scope)}/boards/${boardId}`, boardSchema, { signal }),
    }),
};

export function createBoard(connection: Connection, { scope, name }: { scope: Scope; name: string }): Promise<Board> {
  return request(connection, `${scopePath(scope)}/boards`, boardSchema, { method: 'POST', body: { name } });
}

export async function deleteBoard(connection: Connection, { scope, boardId }: { scope: Scope; boardId: number }): Promise<void> {
  await send(connection, `${scopePath(scope)}/boards/${boardId}`, { method: 'DELETE' });
}

/** One of a label, an assignee or a milestone makes the column. */
export type ListSubject = { label_id: number } | { assignee_id: number } | { milestone_id: number };

export function createBoardList(connection: Connection, { scope, boardId, subject }: { scope: Scope; boardId: number; subject: ListSubject }): Promise<BoardList> {
  return request(connection, `${scopePath(scope)}/boards/${boardId}/lists`, boardListSchema, { method: 'POST', body: subject });
}

export function moveBoardList(connection: Connection, { scope, boardId, listId, position }: { scope: Scope; boardId: number; listId: number; position: number }): Promise<BoardList> {
  return request(connection, `${scopePath(scope)}/boards/${boardId}/lists/${listId}`, boardListSchema, { method: 'PUT', body: { position } });
}

export async function deleteBoardList(connection: Connection, { scope, boardId, listId }: { scope: Scope; boardId: number; listId: number }): Promise<void> {
  await send(connection, `${scopePath(scope)}/boards/${boardId}/lists/${listId}`, { method: 'DELETE' });
}
