import { Link, useNavigate } from '@tanstack/react-router';
import { pathCrumbs } from '../../api/repository.ts';
import { RefSwitcher } from './ref-switcher.tsx';
import './files.css';

interface FilesToolbarProps {
  projectId: number;
  projectName: string;
  /** The ref the screen shows, and what the URL says ('' = the default branch; links keep it so). */
  gitRef: string;
  urlRef: string;
  /** The directory or file shown; '' for the root. */
  path: string;
}

/** Breadcrumbs from the repository's root to `path`, and the ref switcher. */
export function FilesToolbar({ projectId, projectName, gitRef, urlRef, path }: FilesToolbarProps) {
  const navigate = useNavigate();
  const crumbs = pathCrumbs(path);
  const project = String(projectId);
  return (
    <div className="files-toolbar">
      <RefSwitcher projectId={projectId} gitRef={gitRef} onSelect={(ref) => void navigate({ to: '.', search: (previous: object) => ({ ...previous, ref }) } as never)} />
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            {crumbs.length ? (
              <Link to="/projects/$projectId/tree/$" params={{ projectId: project, _splat: '' }} search={{ ref: urlRef }}>
                {projectName}
              </Link>
            ) : (
              <span aria-current="page">{projectName}</span>
            )}
          </li>
          {crumbs.map((crumb, index) => (
            <li key={crumb.path}>
              {index === crumbs.length - 1 ? (
                <span aria-current="page">{crumb.name}</span>
              ) : (
                <Link to="/projects/$projectId/tree/$" params={{ projectId: project, _splat: crumb.path }} search={{ ref: urlRef }}>
                  {crumb.name}
                </Link>
              )}
            </li>
          ))}
        </ol>
      </nav>
    </div>
  );
}
