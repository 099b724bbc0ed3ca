import type { ProjectCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

/** Every member sees the approval settings and rules; Maintainers and above change them (the platform answers 403 otherwise). */
export function approvalsReadOnly(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return 'This token is read-only (it lacks the api scope): approval settings can be viewed, not changed.';
  if (caller.isAdmin || caller.role >= AccessLevel.MAINTAINER) return null;
  return 'Only Maintainers and Owners of this project, and administrators, can change its approval settings and rules.';
}
