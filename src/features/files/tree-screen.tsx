import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { commitsQueries } from '../../api/commits.ts';
import { useConnection } from '../../api/react.ts';
import { repositoryQueries, type TreeEntry } from '../../api/repository.ts';
import { normalizePath } from '../../api/params.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Note } from '../../components/note.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { FilesToolbar } from './files-toolbar.tsx';
import { useFilesContext, type FilesContext } from './use-files-context.ts';
import { RouteLink } from '../../components/route-link.tsx';

/** A directory of the repository at a ref: its entries (directories first), breadcrumbs, ref switcher, actions. */
export function TreeScreen({ projectId, path: rawPath, urlRef }: { projectId: number; path: string; urlRef: string }) {
  const path = normalizePath(rawPath);
  const context = useFilesContext(projectId, urlRef);
  const { project, gitRef } = context;
  const empty = Boolean((project as { empty_repo?: boolean }).empty_repo);
  return (
    <section aria-labelledby="tree-heading">
      <header className="screen__header">
        <h1 id="tree-heading">{path ? `${path.split('/').pop()}` : `Files of ${project.name}`}</h1>
        <TreeActions projectId={projectId} path={path} urlRef={urlRef} context={context} />
      </header>
      <FilesToolbar projectId={projectId} projectName={project.path} gitRef={gitRef} urlRef={urlRef} path={path} />
      <Note>{context.access.reason}</Note>
      {empty ? (
        <EmptyState title="This repository is empty">
          {context.access.canEdit ? (
            <p>
              Start it with a first file:{' '}
              <Link to="/projects/$projectId/new/$" params={{ projectId: String(projectId), _splat: '' }} search={{ ref: urlRef }}>
                create a file
              </Link>
              .
            </p>
          ) : (
            <p>Nothing has been pushed to it yet.</p>
          )}
        </EmptyState>
      ) : (
        <DirectoryEntries projectId={projectId} path={path} gitRef={gitRef} urlRef={urlRef} />
      )}
    </section>
  );
}

function TreeActions({ projectId, path, urlRef, context }: { projectId: number; path: string; urlRef: string; context: FilesContext }) {
  if (!context.access.canEdit) return null;
  return (
    <div className="row-actions">
      <Link className="button" to="/projects/$projectId/new/$" params={{ projectId: String(projectId), _splat: path }} search={{ ref: urlRef }}>
        New file
      </Link>
      <Link className="button" to="/projects/$projectId/changes" params={{ projectId: String(projectId) }} search={{ ref: urlRef, path }}>
        Commit several changes
      </Link>
    </div>
  );
}

const TYPE_LABELS: Record<string, string> = { tree: 'Directory', blob: 'File', commit: 'Submodule' };

function DirectoryEntries({ projectId, path, gitRef, urlRef }: { projectId: number; path: string; gitRef: string; urlRef: string }) {
  const connection = useConnection();
  const tree = useInfiniteQuery(repositoryQueries.tree(connection, projectId, { path, ref: gitRef }));
  if (tree.isPending) {
    return (
      <p className="state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading files…
      </p>
    );
  }
  if (!tree.data) return <ErrorPanel error={tree.error} onRetry={() => void tree.refetch()} />;
  const entries = tree.data.pages.flatMap((page) => page.items);
  if (!entries.length) return <EmptyState title="This directory is empty" />;
  const label = path ? `Files in ${path}` : 'Files';
  return (
    <>
      {/* on a narrow screen the table scrolls in its own box, not the page */}
      <div className="table-scroll">
        <table className="file-tree" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Last commit</th>
              <th scope="col">Last update</th>
            </tr>
          </thead>
          <tbody>
            {tree.data.pages.map((page, index) => (
              <EntryRows key={index} projectId={projectId} entries={page.items} gitRef={gitRef} urlRef={urlRef} />
            ))}
          </tbody>
        </table>
      </div>
      {tree.hasNextPage || tree.data.pages.length > 1 ? (
        <LoadMore summary={`${entries.length} entries`} hasMore={tree.hasNextPage} loading={tree.isFetchingNextPage} onLoadMore={() => void tree.fetchNextPage()} />
      ) : null}
      {tree.isFetchNextPageError ? <ErrorPanel error={tree.error} onRetry={() => void tree.fetchNextPage()} /> : null}
    </>
  );
}

/** One page of entries; their last commits load beside them, a page at a time. */
function EntryRows({ projectId, entries, gitRef, urlRef }: { projectId: number; entries: readonly TreeEntry[]; gitRef: string; urlRef: string }) {
  const connection = useConnection();
  const last = useQuery(commitsQueries.lastOfPaths(connection, projectId, gitRef, entries.map((entry) => entry.path)));
  return entries.map((entry) => {
    const commit = last.data?.get(entry.path);
    return (
      <tr key={entry.path}>
        <td>
          <EntryLink projectId={projectId} entry={entry} urlRef={urlRef} />
        </td>
        <td className="muted">{TYPE_LABELS[entry.type] ?? entry.type}</td>
        <td className="file-tree__commit">
          {commit ? (
            <RouteLink to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: commit.id }} title={commit.title}>
              {commit.title}
            </RouteLink>
          ) : last.isPending ? (
            <span className="muted">Loading…</span>
          ) : null}
        </td>
        <td className="muted nowrap">
          {commit ? (
            <Time value={commit.committed_date} relative />
          ) : null}
        </td>
      </tr>
    );
  });
}

function EntryLink({ projectId, entry, urlRef }: { projectId: number; entry: TreeEntry; urlRef: string }) {
  const project = String(projectId);
  if (entry.type === 'tree') {
    return (
      <RouteLink to="/projects/$projectId/tree/$" params={{ projectId: project, _splat: entry.path }} search={{ ref: urlRef }}>
        <span aria-hidden="true">📁 </span>
        {entry.name}
      </RouteLink>
    );
  }
  if (entry.type === 'blob') {
    return (
      <RouteLink to="/projects/$projectId/blob/$" params={{ projectId: project, _splat: entry.path }} search={{ ref: urlRef }}>
        <span aria-hidden="true">📄 </span>
        {entry.name}
      </RouteLink>
    );
  }
  // a submodule points into another repository, which the console does not browse
  return (
    <span>
      {entry.name} <span className="muted">@ {entry.id.slice(0, 8)}</span>
    </span>
  );
}
