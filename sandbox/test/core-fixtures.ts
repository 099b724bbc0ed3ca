import type { Answer, Harness } from './harness.ts';

/** Fixtures built through the API, the way a client would set up an instance. */

let serial = 0;

/** A name no other fixture in the same process uses. */
export function unique(prefix: string): string {
  serial++;
  return `${prefix}${serial}${Math.random().toString(36).slice(2, 6)}`;
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text}`);
  }
}

export interface ApiUser {
  id: number;
  username: string;
  name: string;
  email: string;
  token: string;
}

/** POST /users as the administrator, then POST /users/:id/personal_access_tokens. */
export async function apiUser(
  h: Harness,
  options: { username?: string; name?: string; scopes?: string[]; admin?: boolean; extra?: Record<string, unknown> } = {},
): Promise<ApiUser> {
  const username = options.username ?? unique('u');
  const email = `${username}@example.com`;
  const name = options.name ?? `User ${username}`;
  const created = await h.post('/users', { email, name, username, password: 'secret-password-1', admin: options.admin ?? false, ...options.extra }, { token: h.adminToken });
  expectStatus(created, 201, 'POST /users');
  const token = await h.post(`/users/${created.body.id}/personal_access_tokens`, { name: 'fixture', scopes: options.scopes ?? ['api'] }, { token: h.adminToken });
  expectStatus(token, 201, 'POST /users/:id/personal_access_tokens');
  return { id: created.body.id, username, name, email, token: token.body.token };
}

export interface ApiGroup {
  id: number;
  path: string;
  full_path: string;
  visibility: string;
}

/** POST /groups as `token`. */
export async function apiGroup(
  h: Harness,
  token: string,
  options: { path?: string; name?: string; visibility?: string; parent_id?: number; description?: string } = {},
): Promise<ApiGroup> {
  const path = options.path ?? unique('g');
  const answer = await h.post('/groups', { name: options.name ?? path, path, visibility: options.visibility ?? 'private', parent_id: options.parent_id, description: options.description }, { token });
  expectStatus(answer, 201, 'POST /groups');
  return answer.body;
}

export interface ApiProject {
  id: number;
  path: string;
  name: string;
  path_with_namespace: string;
  visibility: string;
}

/** POST /projects as `token` (in the caller's namespace unless `namespace_id`). */
export async function apiProject(
  h: Harness,
  token: string,
  options: { path?: string; name?: string; visibility?: string; namespace_id?: number; description?: string } = {},
): Promise<ApiProject> {
  const path = options.path ?? unique('p');
  const answer = await h.post('/projects', { name: options.name ?? path, path, visibility: options.visibility ?? 'private', namespace_id: options.namespace_id, description: options.description }, { token });
  expectStatus(answer, 201, 'POST /projects');
  return answer.body;
}

/** POST /projects/:id/share: the group's members reach the project, capped at `access`. */
export async function shareProject(h: Harness, token: string, projectId: number, groupId: number, access: number): Promise<void> {
  const answer = await h.post(`/projects/${projectId}/share`, { group_id: groupId, group_access: access }, { token });
  expectStatus(answer, 201, 'POST /projects/:id/share');
}

/** POST /groups/:id/share: the invited group's members reach the group, capped at `access`. */
export async function shareGroup(h: Harness, token: string, groupId: number, invitedGroupId: number, access: number): Promise<void> {
  const answer = await h.post(`/groups/${groupId}/share`, { group_id: invitedGroupId, group_access: access }, { token });
  expectStatus(answer, 201, 'POST /groups/:id/share');
}

/**
 * A user holding `access` on a project: owner of a group the administrator shares the project
 * with at that level (administrators may invite any group).
 */
export async function userWithProjectRole(h: Harness, projectId: number, access: number): Promise<ApiUser> {
  const user = await apiUser(h);
  const team = await apiGroup(h, user.token);
  await shareProject(h, h.adminToken, projectId, team.id, access);
  return user;
}

/** The URLs of a Link header by rel. */
export function linkRels(header: string | null): Record<string, string> {
  const rels: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) rels[match[2]] = match[1];
  }
  return rels;
}
