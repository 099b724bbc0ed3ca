import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useConnection } from '../../api/react.ts';
import { isRepositoryDeleting, registryQueries, type RegistryRepository, type RegistryScope } from '../../api/registry.ts';
import type { Page } from '../../api/pagination.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { Note } from '../../components/note.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { useActiveSession } from '../../api/react.ts';
import { READ_ONLY_TOKEN } from '../../components/use-project-caller.ts';
import { formatBytes, formatCount } from '../../lib/numbers.ts';
import { maintainerRefusal } from './permissions.ts';
import { RepositoryStatus, repositoryTitle } from './repository-cells.tsx';
import type { RepositoriesSearch } from './search.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

const loadDialogs = chunk(() => import('./registry-dialogs.tsx'));
const DeleteRepositoryDialog = lazyPart(loadDialogs, (module) => module.DeleteRepositoryDialog);

interface RepositoriesScreenProps {
  scope: RegistryScope;
  scopeName?: string;
  search: RepositoriesSearch;
}

/** The container images of a project or a group: tags, size, cleanup and delete state, delete. */
export function RepositoriesScreen({ scope, scopeName, search }: RepositoriesScreenProps) {
  return (
    <section className="screen" aria-labelledby="registry-heading">
      <header className="screen__header">
        <h1 id="registry-heading">{scopeName ? `Container registry of ${scopeName}` : 'Container registry'}</h1>
        {'project' in scope ? (
          <RouteLink className="button" to="/projects/$projectId/registry/cleanup-policy" params={{ projectId: scope.project }}>
            Cleanup policy
          </RouteLink>
        ) : null}
      </header>
      {'project' in scope ? <ProjectRepositories projectId={scope.project} search={search} /> : <RepositoryList scope={scope} search={search} refusal={null} />}
    </section>
  );
}

function ProjectRepositories({ projectId, search }: { projectId: number; search: RepositoriesSearch }) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  return (
    <>
      <RoleUnread failure={failure} />
      <RepositoryList scope={{ project: projectId }} search={search} refusal={pending ? '' : maintainerRefusal(caller, 'Deleting images')} />
    </>
  );
}

function RepositoryList({ scope, search, refusal: projectRefusal }: { scope: RegistryScope; search: RepositoriesSearch; refusal: string | null }) {
  const connection = useConnection();
  const canWrite = Boolean(useActiveSession()?.connection.canWrite);
  // in a group, each image's project decides: the platform answers a refusal with its reason
  const refusal = 'group' in scope && !canWrite ? READ_ONLY_TOKEN : projectRefusal;
  const setSearch = useSetSearch<RepositoriesSearch>();
  const params = { page: search.page, per_page: search.per_page };
  // a repository being deleted is followed until it is gone (or its delete failed)
  const live = useLiveRefetch((page: Page<RegistryRepository>) => page.items.some((repository) => isRepositoryDeleting(repository.status)));
  const list = useQuery({ ...registryQueries.repositories(connection, scope, params), placeholderData: keepPreviousData, refetchInterval: live });
  usePrefetch(list.data?.nextPage === undefined ? null : registryQueries.repositories(connection, scope, { ...params, page: list.data.nextPage }));
  const [deleting, setDeleting] = useState<RegistryRepository | null>(null);
  usePreloadWhenIdle(loadDialogs, refusal === null && Boolean(list.data?.items.length));

  const columns: ColumnDef<RegistryRepository>[] = [
    {
      id: 'image',
      header: 'Image',
      cell: ({ row: { original: repository } }) =>
        repository.project_id === undefined ? (
          repositoryTitle(repository)
        ) : (
          <RouteLink to="/projects/$projectId/registry/$repositoryId" params={{ projectId: repository.project_id, repositoryId: repository.id }}>
            {repositoryTitle(repository)}
          </RouteLink>
        ),
    },
    {
      id: 'tags',
      header: 'Tags',
      // groups' lists carry no counts (spec 3, 9): the image's own page has them
      cell: ({ row: { original: repository } }) => (repository.tags_count === undefined ? <RepositoryCount repositoryId={repository.id} /> : formatCount(repository.tags_count)),
    },
    { id: 'size', header: 'Size', cell: ({ row: { original: repository } }) => <RepositorySize repositoryId={repository.id} /> },
    { id: 'created', header: 'Created', cell: ({ row: { original: repository } }) => <Time value={repository.created_at} dateOnly /> },
    { id: 'status', header: 'Status', cell: ({ row: { original: repository } }) => <RepositoryStatus repository={repository} /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: repository } }) => (
        <button
          type="button"
          className="button button--danger-quiet"
          disabled={refusal !== null || isRepositoryDeleting(repository.status) || repository.project_id === undefined}
          title={refusal || undefined}
          aria-label={`Delete image ${repository.path}`}
          onClick={() => setDeleting(repository)}
        >
          Delete
        </button>
      ),
    },
  ];

  return (
    <>
      <Note>{refusal}</Note>
      <div className="filter-bar" role="toolbar" aria-label="Registry list options">
        <PerPageSelect value={search.per_page} onChange={(perPage) => setSearch({ per_page: perPage as RepositoriesSearch['per_page'] })} />
      </div>
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <EmptyState title={page.page > 1 ? 'No images on this page.' : 'No container images yet.'}>
                <p>Images appear here once something pushes to the registry (docker push).</p>
              </EmptyState>
            ) : (
              <DataTable caption="Container images" columns={columns} data={page.items} getRowId={(repository) => String(repository.id)} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label="Container images pages" />
          </>
        )}
      </QueryStates>
      {deleting && deleting.project_id !== undefined ? (
        <DeleteRepositoryDialog projectId={deleting.project_id} repository={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </>
  );
}

/** The deduplicated size, from the repository itself (lists do not carry it). */
function RepositorySize({ repositoryId }: { repositoryId: number }) {
  const repository = useQuery(registryQueries.repository(useConnection(), repositoryId));
  if (repository.isPending) return <span className="muted">…</span>;
  const size = repository.data?.size;
  return size === undefined || size === null ? <span className="muted">Unknown</span> : <>{formatBytes(size)}</>;
}

function RepositoryCount({ repositoryId }: { repositoryId: number }) {
  const repository = useQuery(registryQueries.repository(useConnection(), repositoryId));
  const count = repository.data?.tags_count;
  return count === undefined ? <span className="muted">…</span> : <>{formatCount(count)}</>;
}
