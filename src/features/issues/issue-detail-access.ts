import { commentRefusal as lockedCommentRefusal, READ_ONLY_TOKEN, useProjectAuthorCaller, type ProjectAuthorCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';


export type IssueCaller = ProjectAuthorCaller;

const readOnly = READ_ONLY_TOKEN;

/** Editing the issue's fields and the sidebar: Reporters and up, or its author (the platform's update_issue). */
export function editRefusal(caller: IssueCaller, authorId: number | undefined): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= AccessLevel.REPORTER || (authorId !== undefined && authorId === caller.userId)) return null;
  return 'Only the author and Reporters, Developers, Maintainers and Owners of this project can edit this issue.';
}

/** Commenting: anyone who sees the issue, unless its discussion is locked (then project members from Reporter up). */
export function commentRefusal(caller: IssueCaller, locked: boolean): string | null {
  return lockedCommentRefusal(caller, locked, AccessLevel.REPORTER);
}

/** spec 2, 4.2: internal notes only for Reporters and up. */
export function mayWriteInternal(caller: IssueCaller): boolean {
  return caller.canWrite && (caller.isAdmin || caller.role >= AccessLevel.REPORTER);
}

/** Deleting an issue: owners and administrators only; the API answers 403 to everyone else. */
export function deleteRefusal(caller: IssueCaller): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= AccessLevel.OWNER) return null;
  return 'Only Owners of this project and administrators can delete an issue.';
}

/** Who is looking, and their role in the project. */
export const useIssueCaller = useProjectAuthorCaller;
