import type { RunnerScope } from '../../api/runners.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

export interface RunnerCaller {
  isAdmin: boolean;
  /** The token has `api`. */
  canWrite: boolean;
  scopes?: readonly string[] | null;
  /** The caller's role in the scope's group or project (0 when none); ignored for administrators. */
  role: number;
}

/** `api` writes everywhere; `manage_runner` writes to /runners/:id only (the platform's allow_access_with_scope). */
export function canWriteRunners(caller: Pick<RunnerCaller, 'canWrite' | 'scopes'>): boolean {
  return caller.canWrite || Boolean(caller.scopes?.includes('manage_runner'));
}

export interface FleetAccess {
  /** The platform answers 403 otherwise, so the list is not even asked for. */
  canView: boolean;
  reason: string | null;
}

/** Who may list a fleet (spec 1, 4.3): the instance's administrators, a group's Owners, a project's Maintainers. */
export function fleetAccess(scope: RunnerScope, caller: RunnerCaller): FleetAccess {
  if (caller.isAdmin) return { canView: true, reason: null };
  if (scope === 'instance') return { canView: false, reason: 'The instance’s runner fleet is for administrators only, and this account is not an administrator.' };
  if ('group' in scope && caller.role < AccessLevel.OWNER) return { canView: false, reason: 'Only Owners of this group and administrators can see its runners.' };
  if ('project' in scope && caller.role < AccessLevel.MAINTAINER) return { canView: false, reason: 'Only Maintainers and Owners of this project and administrators can see its runners.' };
  return { canView: true, reason: null };
}

/**
 * Whether the caller may change a runner of this type from this list, or why not: instance runners
 * are administrators'; in a project's list, group runners belong to the group's Owners.
 */
export function runnerChangeRefusal(scope: RunnerScope, caller: RunnerCaller, runnerType: string): string | null {
  if (!canWriteRunners(caller)) return 'This token is read-only (it lacks the api scope).';
  if (caller.isAdmin) return null;
  if (runnerType === 'instance_type') return 'Instance runners are managed by administrators.';
  if (scope !== 'instance' && 'project' in scope && runnerType === 'group_type') return 'Group runners are managed by the group’s Owners.';
  return null;
}

/** The runner as its page's rules read it: its type, and the projects it is assigned to. */
interface OwnedRunner {
  runner_type: string;
  projects: readonly unknown[];
}

const READ_ONLY = 'This token is read-only (it lacks the api scope).';

const projectOwners = (runner: OwnedRunner) => (runner.projects.length > 1 ? 'one of the runner’s projects' : 'the runner’s project');

/**
 * Changing one runner from its page. `ownerRole` is the caller's highest role among its owners: its
 * group, or any of its projects (the platform's owned runners: a Maintainer of any one owns it).
 */
export function runnerDetailRefusal(caller: RunnerCaller & { ownerRole: number }, runner: OwnedRunner): string | null {
  if (!canWriteRunners(caller)) return 'This token is read-only (it lacks the api and manage_runner scopes): the runner can be viewed, not changed.';
  if (caller.isAdmin) return null;
  if (runner.runner_type === 'instance_type') return 'Instance runners are managed by administrators only.';
  if (runner.runner_type === 'group_type' && caller.ownerRole < AccessLevel.OWNER) return 'Only Owners of the runner’s group can change it.';
  if (runner.runner_type === 'project_type' && caller.ownerRole < AccessLevel.MAINTAINER) return `Only Maintainers of ${projectOwners(runner)} can change it.`;
  return null;
}

/** Deleting a runner from its page: the platform refuses one that serves several projects to all but administrators. */
export function runnerDeleteRefusal(caller: { isAdmin: boolean }, runner: OwnedRunner): string | null {
  if (!caller.isAdmin && runner.runner_type === 'project_type' && runner.projects.length > 1) return 'The runner serves several projects: unassign it from the others first, or ask an administrator to delete it.';
  return null;
}

/**
 * Whether the caller may list a runner's jobs, or why not: the platform shows them for the runners
 * one owns (an administrator's are all), and answers 403 otherwise, so they are not asked for.
 */
export function runnerJobsRefusal(caller: { isAdmin: boolean; ownerRole: number }, runner: OwnedRunner): string | null {
  if (caller.isAdmin) return null;
  if (runner.runner_type === 'instance_type') return 'The jobs of an instance runner are shown to administrators only.';
  if (runner.runner_type === 'group_type' && caller.ownerRole < AccessLevel.OWNER) return 'Only Owners of the runner’s group can see its jobs.';
  if (runner.runner_type === 'project_type' && caller.ownerRole < AccessLevel.MAINTAINER) return `Only Maintainers of ${projectOwners(runner)} can see its jobs.`;
  return null;
}

/** Assigning a project runner to more projects (an api write under /projects): its owners, unless it is locked to its projects; administrators always. */
export function runnerAssignRefusal(caller: { isAdmin: boolean; canWrite: boolean; ownerRole: number }, runner: OwnedRunner & { locked: boolean }): string | null {
  if (runner.runner_type !== 'project_type') return 'Only project runners serve chosen projects.';
  if (!caller.canWrite) return READ_ONLY;
  if (caller.isAdmin) return null;
  if (runner.locked) return 'The runner is locked to its projects: only administrators can assign it to more.';
  if (caller.ownerRole < AccessLevel.MAINTAINER) return `Only Maintainers of ${projectOwners(runner)} can assign it to more projects.`;
  return null;
}

/**
 * Unassigning the runner from its project at `index`: never from its last project, nor (but for
 * administrators) from the one it was made for (the first) or while it is locked, and only by that
 * project's Maintainers. A reader sees only the projects they are a member of, so what this allows
 * the platform may still refuse, with its reason.
 */
export function runnerUnassignRefusal(caller: { isAdmin: boolean; canWrite: boolean; roleInProject: number }, runner: OwnedRunner & { locked: boolean }, index: number): string | null {
  if (!caller.canWrite) return READ_ONLY;
  if (runner.projects.length <= 1) return 'A runner keeps its last project: delete the runner instead.';
  if (caller.isAdmin) return null;
  if (index === 0) return 'The runner keeps the project it was made for: delete the runner instead.';
  if (runner.locked) return 'The runner is locked to its projects: only administrators can unassign it.';
  if (caller.roleInProject < AccessLevel.MAINTAINER) return 'Only Maintainers of this project can unassign the runner from it.';
  return null;
}
