import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, sendUnlessUnchanged, type Connection } from './http.ts';
import { withoutEmpty } from './params.ts';
import { scopePath, type Scope } from './keys.ts';
import { flag, loose } from './schema.ts';

/** A label as an issue carries it with `with_labels_details` (spec 2, 4.1). */
export const labelBasicSchema = loose({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  text_color: z.nullish(z.string()),
  description: z.nullish(z.string()),
});
export type LabelBasic = z.infer<typeof labelBasicSchema>;

/** A label of a project or group list: counts with `with_counts`, a priority in projects. */
export const labelSchema = z.extend(labelBasicSchema, {
  open_issues_count: z.nullish(z.number()),
  closed_issues_count: z.nullish(z.number()),
  open_merge_requests_count: z.nullish(z.number()),
  subscribed: flag,
  priority: z.nullish(z.number()),
  is_project_label: flag,
});
export type Label = z.infer<typeof labelSchema>;

/** A `scope::value` label: one value per scope on an issue, as the platform keeps it. */
export function labelScope(name: string): { scope: string; value: string } | undefined {
  const at = name.lastIndexOf('::');
  return at > 0 ? { scope: name.slice(0, at), value: name.slice(at + 2) } : undefined;
}

export interface LabelListParams {
  search?: string;
  with_counts?: boolean;
  include_ancestor_groups?: boolean;
  page: number;
  per_page: number;
}

export const labelsQueries = {
  all: () => ['labels'] as const,
  scope: (scope: Scope) => [...labelsQueries.all(), scope] as const,
  list: (connection: Connection, scope: Scope, params: LabelListParams) =>
    queryOptions({
      queryKey: [...labelsQueries.scope(scope), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, `${scopePath(scope)}/labels`, labelSchema, { query: withoutEmpty(params), signal }),
      staleTime: 30_000,
    }),
};

export interface LabelValues {
  name: string;
  color: string;
  description?: string;
  priority?: number | null;
}

export function createLabel(connection: Connection, { scope, values }: { scope: Scope; values: LabelValues }): Promise<Label> {
  return request(connection, `${scopePath(scope)}/labels`, labelSchema, { method: 'POST', body: values });
}

export function updateLabel(connection: Connection, { scope, labelId, changes }: { scope: Scope; labelId: number; changes: Partial<LabelValues> & { new_name?: string } }): Promise<Label> {
  return request(connection, `${scopePath(scope)}/labels/${labelId}`, labelSchema, { method: 'PUT', body: changes });
}

export async function deleteLabel(connection: Connection, { scope, labelId }: { scope: Scope; labelId: number }): Promise<void> {
  await send(connection, `${scopePath(scope)}/labels/${labelId}`, { method: 'DELETE' });
}

/** Whether anything changed: subscribing to what one is subscribed to already changes nothing. */
export function setLabelSubscription(connection: Connection, { scope, labelId, subscribed }: { scope: Scope; labelId: number; subscribed: boolean }): Promise<boolean> {
  return sendUnlessUnchanged(connection, `${scopePath(scope)}/labels/${labelId}/${subscribed ? 'subscribe' : 'unsubscribe'}`, { method: 'POST' });
}
