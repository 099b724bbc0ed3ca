import type { Connection } from '../../api/http.ts';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';

export const SOON_DAYS = 30;
export const LISTED = 8;

/** The day `SOON_DAYS` ahead: tokens expiring before it need attention. */
export function soonDay(now = new Date()): string {
  return new Date(now.getTime() + SOON_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/** The lists every home shows: the user's own groups and projects (an administrator's overview covers the rest). */
export const homeQueries = {
  groups: (connection: Connection) => groupsQueries.list(connection, { scope: 'member', search: '', order_by: 'name', sort: 'asc', top_level_only: false, page: 1, per_page: LISTED }),
  projects: (connection: Connection) => projectsQueries.list(connection, { scope: 'member', search: '', order_by: 'last_activity_at', sort: 'desc', archived: false, page: 1, per_page: LISTED }),
};
