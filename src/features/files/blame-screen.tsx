import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { RoutePending } from '../../components/states.tsx';
import { BlameView } from './blame-view.tsx';

interface BlameScreenProps {
  projectId: number;
  filePath: string;
  /** Empty: the project's default branch. */
  gitRef: string;
}

/** The blame of one file: commit groups beside the lines, loaded in ranges, virtualized. */
export function BlameScreen({ projectId, filePath, gitRef }: BlameScreenProps) {
  const connection = useConnection();
  const project = useQuery(projectsQueries.detail(connection, projectId));
  const ref = gitRef || project.data?.default_branch || '';
  return (
    <section aria-labelledby="blame-title">
      <header className="screen__header">
        <div>
          <h1 id="blame-title">Blame of {filePath}</h1>
          <p className="muted">
            {project.data ? `${project.data.name_with_namespace}, ` : ''}
            {ref ? `at ${ref}` : null}
          </p>
        </div>
        <Link className="button" to="/projects/$projectId/blob/$" params={{ projectId: String(projectId), _splat: filePath }} search={{ ref: gitRef }}>
          View file
        </Link>
      </header>
      {ref ? (
        // a new file or ref is a new blame: nothing carries over from the previous one
        <BlameView key={`${projectId}\0${filePath}\0${ref}`} projectId={projectId} filePath={filePath} gitRef={ref} />
      ) : project.isError ? (
        <ErrorPanel error={project.error} onRetry={() => void project.refetch()} />
      ) : project.data ? (
        <p role="status">This project has no default branch yet: its repository is empty.</p>
      ) : (
        <RoutePending />
      )}
    </section>
  );
}
