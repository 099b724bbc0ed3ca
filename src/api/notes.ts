import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { flag, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';


/** A comment, or a system note the platform wrote for a change (spec 2, 4.2). */
export const noteSchema = loose({
  id: z.number(),
  body: z.string(),
  author: z.nullish(userSummarySchema),
  created_at: z.string(),
  updated_at: z.nullish(z.string()),
  system: flag,
  internal: flag,
  noteable_id: z.nullish(z.number()),
  noteable_type: z.nullish(z.string()),
  noteable_iid: z.nullish(z.number()),
});
export type Note = z.infer<typeof noteSchema>;

export const awardEmojiSchema = loose({
  id: z.number(),
  name: z.string(),
  user: z.nullish(userSummarySchema),
  created_at: z.nullish(z.string()),
});
export type AwardEmoji = z.infer<typeof awardEmojiSchema>;

/** What notes hang on: an issue or a merge request (by iid) or a project snippet (by id). */
export type Noteable = { projectId: number; issueIid: number } | { projectId: number; mergeRequestIid: number } | { projectId: number; snippetId: number };

function noteablePath(noteable: Noteable): string {
  if ('issueIid' in noteable) return `/projects/${noteable.projectId}/issues/${noteable.issueIid}`;
  if ('mergeRequestIid' in noteable) return `/projects/${noteable.projectId}/merge_requests/${noteable.mergeRequestIid}`;
  return `/projects/${noteable.projectId}/snippets/${noteable.snippetId}`;
}

export interface NoteListParams {
  sort?: 'asc' | 'desc';
  order_by?: 'created_at' | 'updated_at';
  page: number;
  per_page: number;
}

export const notesQueries = {
  all: () => ['notes'] as const,
  of: (noteable: Noteable) => [...notesQueries.all(), noteable] as const,
  list: (connection: Connection, noteable: Noteable, params: NoteListParams) =>
    queryOptions({
      queryKey: [...notesQueries.of(noteable), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, `${noteablePath(noteable)}/notes`, noteSchema, { query: { ...params }, signal }),
    }),
  /**
   * The whole thread, oldest first, a page of a hundred at a time: the first page paints while
   * the screen fetches the rest (`fetchNextPage` until `hasNextPage` is false).
   */
  thread: (connection: Connection, noteable: Noteable) =>
    infiniteQueryOptions({
      queryKey: [...notesQueries.of(noteable), 'thread'] as const,
      queryFn: ({ pageParam, signal }) =>
        requestPage(connection, `${noteablePath(noteable)}/notes`, noteSchema, { query: { sort: 'asc', order_by: 'created_at', page: pageParam, per_page: 100 }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => last.nextPage,
    }),
  /** The reactions on the issue itself, or with `noteId` on one of its notes. */
  awards: (connection: Connection, noteable: Noteable, noteId?: number) =>
    queryOptions({
      queryKey: [...notesQueries.of(noteable), 'awards', noteId ?? null] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, `${noteablePath(noteable)}${noteId === undefined ? '' : `/notes/${noteId}`}/award_emoji`, awardEmojiSchema, { query: { per_page: 100, page: 1 }, signal }),
    }),
};

export function createNote(connection: Connection, { noteable, body, internal }: { noteable: Noteable; body: string; internal?: boolean }): Promise<Note> {
  return request(connection, `${noteablePath(noteable)}/notes`, noteSchema, { method: 'POST', body: { body, ...(internal ? { internal: true } : {}) } });
}

export function updateNote(connection: Connection, { noteable, noteId, body }: { noteable: Noteable; noteId: number; body: string }): Promise<Note> {
  return request(connection, `${noteablePath(noteable)}/notes/${noteId}`, noteSchema, { method: 'PUT', body: { body } });
}

export async function deleteNote(connection: Connection, { noteable, noteId }: { noteable: Noteable; noteId: number }): Promise<void> {
  await send(connection, `${noteablePath(noteable)}/notes/${noteId}`, { method: 'DELETE' });
}

export function awardEmoji(connection: Connection, { noteable, noteId, name }: { noteable: Noteable; noteId?: number; name: string }): Promise<AwardEmoji> {
  return request(connection, `${noteablePath(noteable)}${noteId === undefined ? '' : `/notes/${noteId}`}/award_emoji`, awardEmojiSchema, { method: 'POST', body: { name } });
}

export async function removeAwardEmoji(connection: Connection, { noteable, noteId, awardId }: { noteable: Noteable; noteId?: number; awardId: number }): Promise<void> {
  await send(connection, `${noteablePath(noteable)}${noteId === undefined ? '' : `/notes/${noteId}`}/award_emoji/${awardId}`, { method: 'DELETE' });
}
