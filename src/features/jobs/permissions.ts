import { READ_ONLY_TOKEN, type ProjectCaller } from '../../components/use-project-caller.ts';

/** The platform's roles: Developers run, retry, cancel and play jobs and pipelines; Owners delete pipelines. */
export const DEVELOPER = 30;
export const OWNER = 50;

/** Why the caller may not run jobs or pipelines, or null when they may (protected refs are the instance's to refuse). */
export function runRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (!caller.isAdmin && caller.role < DEVELOPER) return 'Only Developers and up can run, retry or cancel jobs in this project.';
  return null;
}

/** Why the caller may not delete a pipeline, or null. */
export function deleteRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (!caller.isAdmin && caller.role < OWNER) return 'Only project Owners can delete pipelines.';
  return null;
}
