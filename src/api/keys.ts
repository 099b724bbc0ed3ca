import type { QueryClient } from '@tanstack/react-query';

/** Which group or project a list belongs to, as it appears in query keys: `{ group: 12 }`. */
export type Scope = { group: number } | { project: number };

export type SourceKind = 'group' | 'project';

export function scopeOf(kind: SourceKind, id: number): Scope {
  return kind === 'group' ? { group: id } : { project: id };
}

/** The query key of a project's details (api/projects.ts), which the press path reads its default branch from. */
export const projectDetailKey = (projectId: number) => ['projects', { project: projectId }, 'detail'] as const;

/** The query key of a group's details (api/groups.ts), and the prefix of its lists' keys: the press path reads whether a group is known. */
export const groupDetailKey = (groupId: number) => ['groups', { group: groupId }, 'detail'] as const;
export const groupListsKey = ['groups', 'list'] as const;

/** An item of a cached list (lists and details share their fields), with when that list was fetched. */
export function listedItem<T extends { id: number }>(cache: Pick<QueryClient, 'getQueriesData' | 'getQueryState'>, listsKey: readonly unknown[], id: number): { item: T; updatedAt: number } | undefined {
  for (const [key, page] of cache.getQueriesData<{ items?: T[] }>({ queryKey: listsKey })) {
    const item = Array.isArray(page?.items) ? page.items.find((each) => each.id === id) : undefined;
    if (item) return { item, updatedAt: cache.getQueryState(key)?.dataUpdatedAt ?? 0 };
  }
  return undefined;
}

/** `/groups/12` or `/projects/34`: the API path of a scope. */
export function scopePath(scope: Scope): string {
  return 'group' in scope ? `/groups/${scope.group}` : `/projects/${scope.project}`;
}

/** The query key of the caller's role in a scope (api/members.ts myAccess): the press path reads whether it is held. */
export const myAccessKey = (scope: Scope, userId: number) => ['members', scope, 'my-access', { user: userId }] as const;

/** The query of members/all that reads the caller's own membership: api/members.ts asks it, api/first-requests.ts sends it early. */
export const myAccessQuery = (userId: number) => ({ user_ids: [userId] });

/** The caller's role in that answer: none when not listed, or while awaiting approval. */
export function accessLevelIn(members: unknown, userId: number): number {
  const member = (Array.isArray(members) ? members : []).find((each: { id?: unknown }) => each?.id === userId) as { access_level?: unknown; membership_state?: unknown } | undefined;
  return typeof member?.access_level === 'number' && member.membership_state !== 'awaiting' ? member.access_level : 0;
}
