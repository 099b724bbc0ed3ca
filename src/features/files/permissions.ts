import { AccessLevel } from '../../api/vocabulary.ts';

/** Who may change files on a ref (spec 3, 4.3; the platform's push rules). */
export interface FileEditCaller {
  isAdmin: boolean;
  /** The token has `api`; without it the console is read-only. */
  canWrite: boolean;
  /** The caller's role in the project (direct or through its groups), 0 when none. */
  role: number;
}

/** What the console knows of the ref: a branch (and whether it is protected), or not a branch at all. */
export type RefTarget =
  | { kind: 'branch'; name: string; protected: boolean; /** The platform's own answer, when the branch entity carries it. */ canPush?: boolean }
  | { kind: 'other'; name: string }
  /** No branch, tag or commit of the project has this name. */
  | { kind: 'missing'; name: string }
  | { kind: 'unknown'; name: string };

export interface FileEditAccess {
  /** Editing is offered at all: a commit to this branch or to a new branch started from it. */
  canEdit: boolean;
  /** A commit may land on the branch itself (otherwise only on a new branch). */
  canPushToRef: boolean;
  /** Why not (or why only to a new branch), in a sentence the screen shows. */
  reason: string | null;
}

/** Developers push to unprotected branches, Maintainers to protected ones, administrators everywhere; a Developer may still branch off a protected branch. */
export function fileEditAccess(caller: FileEditCaller, target: RefTarget): FileEditAccess {
  const none = (reason: string) => ({ canEdit: false, canPushToRef: false, reason });
  if (!caller.canWrite) return none('This token is read-only (it lacks the api scope): files can be viewed, not changed.');
  if (target.kind === 'missing') return none(`“${target.name}” is no branch, tag or commit of this project: switch to one that exists.`);
  if (target.kind === 'other') return none(`“${target.name}” is a tag or a commit, not a branch: switch to a branch to change files.`);
  if (caller.isAdmin) return { canEdit: true, canPushToRef: true, reason: null };
  if (caller.role < AccessLevel.DEVELOPER) return none('Only Developers, Maintainers and Owners of this project can change its files.');
  if (target.kind === 'branch' && (target.canPush === false || (target.canPush === undefined && target.protected && caller.role < AccessLevel.MAINTAINER))) {
    return { canEdit: true, canPushToRef: false, reason: `The branch “${target.name}” is protected: only Maintainers can push to it, so changes go to a new branch.` };
  }
  return { canEdit: true, canPushToRef: true, reason: null };
}
