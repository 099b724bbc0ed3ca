import type { QueryClient } from '@tanstack/react-query';
import { filesQueries } from '../../api/files.ts';
import type { Connection } from '../../api/http.ts';
import { projectsQueries } from '../../api/projects.ts';
import { repositoryQueries } from '../../api/repository.ts';
import { normalizePath } from '../../api/params.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The ref a screen shows: the URL's, or the project's default branch (the project is loaded first). */
async function resolveRef(context: LoaderContext, projectId: number, ref: string): Promise<{ gitRef: string; empty: boolean }> {
  const project = await context.queryClient.ensureQueryData(projectsQueries.detail(context.api, projectId));
  return { gitRef: ref || project.default_branch || 'HEAD', empty: Boolean((project as { empty_repo?: boolean }).empty_repo) };
}

// a failed directory or file shows inside its screen (ref switcher and breadcrumbs stay usable), not as the route's error
const shownInScreen = () => undefined;

export async function loadTree(context: LoaderContext, projectId: number, path: string, ref: string) {
  const { gitRef, empty } = await resolveRef(context, projectId, ref);
  if (empty) return;
  await context.queryClient.ensureInfiniteQueryData(repositoryQueries.tree(context.api, projectId, { path: normalizePath(path), ref: gitRef })).catch(shownInScreen);
}

export async function loadFile(context: LoaderContext, projectId: number, path: string, ref: string) {
  const { gitRef } = await resolveRef(context, projectId, ref);
  await context.queryClient.ensureQueryData(filesQueries.view(context.api, projectId, normalizePath(path), gitRef)).catch(shownInScreen);
}

export async function loadProject(context: LoaderContext, projectId: number) {
  await context.queryClient.ensureQueryData(projectsQueries.detail(context.api, projectId));
}
