/** Which group or project a list belongs to, as it appears in query keys: `{ group: 12 }`. */
export type Scope = { group: number } | { project: number };

export type SourceKind = 'group' | 'project';

export function scopeOf(kind: SourceKind, id: number): Scope {
  return kind === 'group' ? { group: id } : { project: id };
}

/** The query key of a project's details (api/projects.ts), which the press path reads its default branch from. */
export const projectDetailKey = (projectId: number) => ['projects', { project: projectId }, 'detail'] as const;

/** `/groups/12` or `/projects/34`: the API path of a scope. */
export function scopePath(scope: Scope): string {
  return 'group' in scope ? `/groups/${scope.group}` : `/projects/${scope.project}`;
}
