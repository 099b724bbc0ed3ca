import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import { commitsQueries } from '../../api/commits.ts';
import { ApiError } from '../../api/errors.ts';
import { projectsQueries, type Project } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { fileEditAccess, type FileEditAccess, type FileEditCaller, type RefTarget } from './permissions.ts';
import { useMyAccess } from '../../components/use-my-access.ts';

export interface FilesContext {
  project: Project;
  /** The ref the screen shows: the URL's, or the project's default branch. */
  gitRef: string;
  target: RefTarget;
  caller: FileEditCaller;
  access: FileEditAccess;
  /** The role and the branch are known: forms may start from `access`. */
  ready: boolean;
}

/** The caller's role in the project: its own row or its group's, whichever is higher. */
export function projectRole(project: Project): number {
  const permissions = project.permissions;
  return Math.max(permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);
}

/** The project, the ref resolved to a name, and what the caller may do there. */
export function useFilesContext(projectId: number, ref: string): FilesContext {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const project = useSuspenseQuery(projectsQueries.detail(connection, projectId)).data;
  const gitRef = ref || project.default_branch || 'HEAD';
  const empty = Boolean((project as { empty_repo?: boolean }).empty_repo);
  // a ref that is no branch (a tag or a sha) answers 404 here, which is an answer, not a failure
  const branch = useQuery({ ...branchesQueries.detail(connection, projectId, gitRef), retry: false, staleTime: 30_000, enabled: !empty });
  const notBranch = branch.error instanceof ApiError && branch.error.status === 404;
  // no branch: a tag or a commit resolves to a commit, a ref that does not exist to a 404
  const commit = useQuery({ ...commitsQueries.detail(connection, projectId, gitRef), retry: false, staleTime: 30_000, enabled: notBranch });
  // an empty repository's default branch does not exist yet: the first commit creates it
  const target: RefTarget = empty && gitRef === project.default_branch
    ? { kind: 'branch', name: gitRef, protected: false }
    : branch.data
    ? { kind: 'branch', name: gitRef, protected: branch.data.protected, canPush: branch.data.can_push }
    : notBranch && commit.data
      ? { kind: 'other', name: gitRef }
      : notBranch && commit.error instanceof ApiError && commit.error.status === 404
        ? { kind: 'missing', name: gitRef }
        : { kind: 'unknown', name: gitRef };
  const isAdmin = Boolean(me?.isAdmin);
  // inherited roles count: /members/all answers with the highest, through every ancestor group
  const membership = useMyAccess({ project: projectId });
  const caller: FileEditCaller = { isAdmin, canWrite: Boolean(me?.canWrite), role: Math.max(projectRole(project), membership.data ?? 0) };
  // until the role is known, offer nothing and explain nothing
  const access = !isAdmin && membership.isPending ? { canEdit: false, canPushToRef: false, reason: null } : fileEditAccess(caller, target);
  const ready = (isAdmin || !membership.isPending) && (empty || !branch.isPending);
  return { project, gitRef, target, caller, access, ready };
}
