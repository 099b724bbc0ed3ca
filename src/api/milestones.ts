import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { withoutEmpty } from './params.ts';
import { scopePath, type Scope } from './keys.ts';
import { flag, loose } from './schema.ts';

/** A project or group milestone (spec 2, 4.1 `milestone`). */
export const milestoneSchema = loose({
  id: z.number(),
  iid: z.number(),
  project_id: z.nullish(z.number()),
  group_id: z.nullish(z.number()),
  title: z.string(),
  description: z.nullish(z.string()),
  state: z.string(),
  due_date: z.nullish(z.string()),
  start_date: z.nullish(z.string()),
  expired: flag,
  web_url: z.nullish(z.string()),
});
export type Milestone = z.infer<typeof milestoneSchema>;

export interface MilestoneListParams {
  state?: 'active' | 'closed';
  search?: string;
  include_ancestors?: boolean;
  page: number;
  per_page: number;
}

export const milestonesQueries = {
  all: () => ['milestones'] as const,
  scope: (scope: Scope) => [...milestonesQueries.all(), scope] as const,
  list: (connection: Connection, scope: Scope, params: MilestoneListParams) =>
    queryOptions({
      queryKey: [...milestonesQueries.scope(scope), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, `${scopePath(scope)}/milestones`, milestoneSchema, { query: withoutEmpty(params), signal }),
      staleTime: 30_000,
    }),
};

export interface MilestoneValues {
  title: string;
  description?: string;
  due_date?: string;
  start_date?: string;
}

export function createMilestone(connection: Connection, { scope, values }: { scope: Scope; values: MilestoneValues }): Promise<Milestone> {
  return request(connection, `${scopePath(scope)}/milestones`, milestoneSchema, { method: 'POST', body: withoutEmpty(values) });
}

export function updateMilestone(
  connection: Connection,
  { scope, milestoneId, changes }: { scope: Scope; milestoneId: number; changes: Partial<MilestoneValues> & { state_event?: 'close' | 'activate' } },
): Promise<Milestone> {
  return request(connection, `${scopePath(scope)}/milestones/${milestoneId}`, milestoneSchema, { method: 'PUT', body: changes });
}

export async function deleteMilestone(connection: Connection, { scope, milestoneId }: { scope: Scope; milestoneId: number }): Promise<void> {
  await send(connection, `${scopePath(scope)}/milestones/${milestoneId}`, { method: 'DELETE' });
}
