import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { HttpError, forbidden, notFound } from '../http/errors.ts';
import { pathParam, type Call } from '../http/route.ts';
import { AccessLevel, effectiveRole, findReadableProject, type ProjectRow } from '../model/access.ts';
import { projectSettings } from '../model/entities.ts';
import { canAccessBranch } from '../model/protected-branches.ts';
import { ensureRepository, existingRepository } from './repository.ts';
import { buildPendingRepository } from '../seed/repositories.ts';

/** Scopes that read repository content (spec 3, 4.3): read_repository besides api and read_api. */
export const REPOSITORY_READ_SCOPES = ['api', 'read_api', 'read_repository'] as const;

export function projectRole(call: Call, project: ProjectRow): number {
  return effectiveRole(call.sandbox.db, call.actor, { type: 'Project', id: project.id }, call.now);
}

/**
 * The project whose code the caller may read: 404 when the project is hidden or its repository
 * feature is off, 403 for a Guest of a private project (Guests do not see code there).
 */
export function readableRepositoryProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  const level = projectSettings(project).repository_access_level;
  const role = projectRole(call, project);
  if (level === 'disabled') throw notFound();
  if ((level === 'private' || project.visibility === 'private') && role < AccessLevel.REPORTER) throw forbidden();
  return project;
}

/** The project's repository for reading (null while nothing was ever pushed). */
export function repositoryFor(call: Call, project: ProjectRow): string | null {
  buildPendingRepository(call.sandbox, project);
  return existingRepository(call.sandbox, project);
}

/** The platform's answer to a write while a storage move holds the repository (Gitaly's pre-receive refusal). */
export const REPOSITORY_READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';

/** Refuses a git write while the project's repository is read-only (a storage move is running). */
export function requireWritableRepository(call: Call, project: Pick<ProjectRow, 'id'>): void {
  const row = call.sandbox.db.prepare('SELECT repository_read_only FROM projects WHERE id = ?').get(project.id) as { repository_read_only: number } | undefined;
  if (row?.repository_read_only) throw commitFailed(REPOSITORY_READ_ONLY_MESSAGE);
}

/** The repository for a write, created when this is its first commit; refused while the repository is read-only. */
export function writableRepository(call: Call, project: ProjectRow): string {
  requireWritableRepository(call, project);
  buildPendingRepository(call.sandbox, project);
  return ensureRepository(call.sandbox, project);
}

/** Developer and up push code (`push_code`); archived projects take no pushes. */
export function requirePushCode(call: Call, project: ProjectRow): void {
  if (projectRole(call, project) < AccessLevel.DEVELOPER || project.archived) throw forbidden();
}

/** Maintainer and up administer the project (protected branches, deploy keys). */
export function requireMaintainer(call: Call, project: ProjectRow): void {
  if (projectRole(call, project) < AccessLevel.MAINTAINER) throw forbidden();
}

/** The platform's 403 for a branch the caller may not push to (protected, or no push rights). */
export function requirePushToBranch(call: Call, project: ProjectRow, branch: string): void {
  if (project.archived || !canAccessBranch(call.sandbox.db, call.actor, project, branch, 'push', call.now)) {
    throw forbidden('You are not allowed to push into this branch');
  }
}

export const commitNotFound = () => notFound('Commit');
export const branchNotFound = () => notFound('Branch');
export const fileNotFound = () => notFound('File');

/** A failed git write answered the platform's way: 400 with the reason as the message. */
export const commitFailed = (message: string) => new HttpError(400, { message });
