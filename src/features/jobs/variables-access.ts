import type { ProjectCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

/** Who may read the variables a pipeline ran with: Developers and up (the platform's read_pipeline_variable answers 403 below). */
export function variablesRefusal(caller: Pick<ProjectCaller, 'isAdmin' | 'role'>): string | null {
  if (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER) return null;
  return 'Only Developers, Maintainers and Owners of this project can see the variables a pipeline ran with.';
}
