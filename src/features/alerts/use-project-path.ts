import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';

/** The project's full path (GraphQL names projects by it) and its display name, once the project is read. */
export function useProjectPath(projectId: number): { fullPath: string | undefined; name: string | undefined; error: unknown } {
  const project = useQuery(projectsQueries.detail(useConnection(), projectId));
  return { fullPath: project.data?.path_with_namespace, name: project.data?.name_with_namespace, error: project.error };
}
