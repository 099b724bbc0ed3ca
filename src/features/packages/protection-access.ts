import { READ_ONLY_TOKEN, type ProjectCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

/** Who may manage package protection rules: Maintainers and up (the platform's admin_package). */
export function rulesRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= AccessLevel.MAINTAINER) return null;
  return 'Only Maintainers and Owners of this project can see and change package protection rules.';
}
