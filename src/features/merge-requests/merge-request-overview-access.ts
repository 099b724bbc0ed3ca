import { commentRefusal as lockedCommentRefusal, READ_ONLY_TOKEN, type ProjectAuthorCaller } from '../../components/use-project-caller.ts';
import { AccessLevel } from '../../api/vocabulary.ts';


export type MergeRequestCaller = ProjectAuthorCaller;

/**
 * Closing, reopening, draft or ready, reviewers, and resolving threads: the platform's
 * update_merge_request (and resolve_note), given to the author and to Developers and up.
 */
export function updateRefusal(caller: MergeRequestCaller, authorId: number | undefined): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER || (authorId !== undefined && authorId === caller.userId)) return null;
  return 'Only the author and Developers, Maintainers and Owners of this project can change this merge request or resolve its threads.';
}

/** Commenting: anyone who sees the request, unless its discussion is locked (then project members from Planner up). */
export function commentRefusal(caller: MergeRequestCaller, locked: boolean): string | null {
  return lockedCommentRefusal(caller, locked, AccessLevel.PLANNER);
}
