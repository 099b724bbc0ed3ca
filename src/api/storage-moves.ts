import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { loose } from './schema.ts';

/**
 * The instance's repository storages. The platform has no API listing storages (they are the
 * instance's `repositories.storages` configuration), so the console names the sandbox's three.
 */
export const REPOSITORY_STORAGES = ['default', 'storage-2', 'storage-3'] as const;
export type RepositoryStorage = (typeof REPOSITORY_STORAGES)[number];

/** The platform's human state names (`cleanup failed` has a space). */
export const MOVE_STATES = ['initial', 'scheduled', 'started', 'replicated', 'finished', 'failed', 'cleanup failed'] as const;

/** States a move can still leave on its own: the list keeps polling while one is on the page. */
const IN_PROGRESS_STATES: readonly string[] = ['initial', 'scheduled', 'started', 'replicated'];

export function isMoveInProgress(state: string): boolean {
  return IN_PROGRESS_STATES.includes(state);
}

/** Only a failed move is scheduled again (a `cleanup failed` one has already switched storage). */
export function canReschedule(move: Pick<StorageMove, 'state' | 'project'>): boolean {
  return move.state === 'failed' && move.project !== undefined;
}

/** How often the list is refetched: every second while a move on the page is under way, else never. */
export function movesRefetchInterval(moves: readonly Pick<StorageMove, 'state'>[] | undefined): number | false {
  return moves?.some((move) => isMoveInProgress(move.state)) ? 1000 : false;
}

const moveProjectSchema = loose({
  id: z.number(),
  name: z.string(),
  name_with_namespace: z.string(),
  path_with_namespace: z.string(),
});

export const storageMoveSchema = loose({
  id: z.number(),
  created_at: z.string(),
  state: z.string(),
  source_storage_name: z.string(),
  destination_storage_name: z.string(),
  project: z.optional(moveProjectSchema),
  group: z.optional(loose({ id: z.number(), name: z.string() })),
});
export type StorageMove = z.infer<typeof storageMoveSchema>;

/** `repository_storage` is in the full project entity for administrators only, never with `simple=true`. */
const projectStorageSchema = loose({
  id: z.number(),
  name_with_namespace: z.string(),
  repository_storage: z.optional(z.string()),
});
export type ProjectStorage = z.infer<typeof projectStorageSchema>;

export interface MovesListParams {
  page: number;
  per_page: number;
}

export const storageMovesQueries = {
  all: () => ['storage-moves'] as const,
  lists: () => [...storageMovesQueries.all(), 'list'] as const,
  projectMoves: (connection: Connection, params: MovesListParams) =>
    queryOptions({
      queryKey: [...storageMovesQueries.lists(), 'project', params] as const,
      queryFn: ({ signal }) => requestPage(connection, '/project_repository_storage_moves', storageMoveSchema, { query: withoutEmpty(params), signal }),
      // follow the moves live until each has finished or failed
      refetchInterval: (query) => movesRefetchInterval(query.state.data?.items),
    }),
  /** The project's current storage (GET /projects/:id as an administrator). */
  projectStorage: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...storageMovesQueries.all(), 'project-storage', projectId] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}`, projectStorageSchema, { signal }),
    }),
};

const STORAGE_VALUES = REPOSITORY_STORAGES as unknown as [RepositoryStorage, ...RepositoryStorage[]];

export const scheduleMoveSchema = z.object({
  kind: z.enum(['project', 'group']),
  containerId: z.string().check(z.regex(/^\d+$/, 'Pick a project or group from the search results')),
  destination: z.enum(STORAGE_VALUES),
});
export type ScheduleMoveInput = z.input<typeof scheduleMoveSchema>;
export type ScheduleMoveValues = z.output<typeof scheduleMoveSchema>;

export const bulkMoveSchema = z
  .object({ source: z.enum(STORAGE_VALUES), destination: z.enum(STORAGE_VALUES) })
  .check(
    z.refine((values) => values.source !== values.destination, { message: 'Choose a destination other than the source', path: ['destination'] }),
  );
export type BulkMoveValues = z.output<typeof bulkMoveSchema>;

/** `destination` is a string: a failed move is rescheduled to whatever storage it named. */
export type ScheduleMoveVariables = { kind: 'project' | 'group'; containerId: number; destination: string };
export type BulkMoveVariables = BulkMoveValues;

/** POST /projects/:id/repository_storage_moves or /groups/:id/...: 201 with the scheduled move. */
export function scheduleStorageMove(connection: Connection, { kind, containerId, destination }: ScheduleMoveVariables): Promise<StorageMove> {
  const path = kind === 'project' ? apiPath`/projects/${containerId}/repository_storage_moves` : apiPath`/groups/${containerId}/repository_storage_moves`;
  return request(connection, path, storageMoveSchema, { method: 'POST', body: { destination_storage_name: destination } });
}

/** POST /project_repository_storage_moves: every project on the source is scheduled (202, no body worth reading). */
export async function scheduleBulkStorageMoves(connection: Connection, { source, destination }: BulkMoveVariables): Promise<void> {
  await send(connection, '/project_repository_storage_moves', { method: 'POST', body: { source_storage_name: source, destination_storage_name: destination } });
}
