import { READ_ONLY_TOKEN, type ProjectCaller } from '../../components/use-project-caller.ts';

const DEVELOPER = 30;
const OWNER = 50;

/**
 * Running, retrying and cancelling: Developers and up (the platform's update_pipeline; a protected
 * ref also needs the right to push or merge to it, which the platform checks and explains).
 */
export function runRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= DEVELOPER) return null;
  return 'Only Developers, Maintainers and Owners of this project can run, retry and cancel pipelines.';
}

/** Deleting a pipeline: Owners only (the platform's destroy_pipeline). */
export function deleteRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= OWNER) return null;
  return 'Only Owners of this project can delete pipelines.';
}
