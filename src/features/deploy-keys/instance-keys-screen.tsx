import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { deployKeysQueries, type InstanceDeployKey, type KeyProject } from '../../api/deploy-keys.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { Time } from '../../components/time.tsx';
import { Expiry, Fingerprints } from './key-cells.tsx';
import { instanceDeployKeysSearchSchema, type InstanceDeployKeysSearch } from './search.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// mounted only while open; its code comes once the list is painted (usePreloadWhenIdle)
const loadDialogs = chunk(() => import('./key-dialogs.tsx'));
const AddDeployKeyDialog = lazyPart(loadDialogs, (module) => module.AddDeployKeyDialog);

/** Every deploy key of the instance, with the projects using each (administrators only). */
export function InstanceKeysScreen({ search }: { search: InstanceDeployKeysSearch }) {
  const me = useActiveSession()?.connection;
  return (
    <section className="screen" aria-labelledby="instance-keys-heading">
      <header className="screen__header">
        <h1 id="instance-keys-heading">Instance deploy keys</h1>
      </header>
      {me?.isAdmin ? (
        <InstanceKeyList search={search} canWrite={Boolean(me.canWrite)} />
      ) : (
        <p className="notice" role="note">
          The instance’s deploy keys are for administrators only, and this account is not an administrator.
        </p>
      )}
    </section>
  );
}

function ProjectLinks({ projects, label }: { projects: readonly KeyProject[]; label: string }) {
  if (!projects.length) return null;
  return (
    <div>
      <span className="muted">{label}:</span>
      <ul aria-label={label} className="link-list">
        {projects.map((project) => (
          <li key={project.id}>
            <RouteLink to="/projects/$projectId/deploy-keys" params={{ projectId: String(project.id) }}>
              {project.name_with_namespace ?? project.path_with_namespace ?? `#${project.id}`}
            </RouteLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

function InstanceKeyList({ search, canWrite }: { search: InstanceDeployKeysSearch; canWrite: boolean }) {
  const connection = useConnection();
  const params = { page: search.page, per_page: search.per_page, public: search.public };
  const list = useQuery({ ...deployKeysQueries.instance(connection, params), placeholderData: keepPreviousData });
  const setSearch = useSetSearch<InstanceDeployKeysSearch>();
  // the controls show what was asked while the list it leads to loads
  const wanted = useRequestedSearch(instanceDeployKeysSearchSchema, search);
  const [adding, setAdding] = useState(false);
  usePrefetch(list.data?.nextPage ? deployKeysQueries.instance(connection, { ...params, page: list.data.nextPage }) : null);
  const readOnly = canWrite ? null : 'This token is read-only (it lacks the api scope).';
  usePreloadWhenIdle(loadDialogs, readOnly === null);

  const columns: ColumnDef<InstanceDeployKey>[] = [
    { id: 'title', header: 'Title', cell: ({ row: { original: key } }) => <strong>{key.title}</strong> },
    { id: 'fingerprint', header: 'Fingerprint', cell: ({ row: { original: key } }) => <Fingerprints deployKey={key} /> },
    {
      id: 'projects',
      header: 'Used by',
      cell: ({ row: { original: key } }) =>
        key.projects_with_write_access.length + key.projects_with_readonly_access.length === 0 ? (
          <span className="muted">No project</span>
        ) : (
          <>
            <ProjectLinks projects={key.projects_with_write_access} label={`Read-write in (${key.title})`} />
            <ProjectLinks projects={key.projects_with_readonly_access} label={`Read-only in (${key.title})`} />
          </>
        ),
    },
    { id: 'expires', header: 'Expires', cell: ({ row: { original: key } }) => <Expiry value={key.expires_at} /> },
    { id: 'created', header: 'Created', cell: ({ row: { original: key } }) => <Time value={key.created_at} dateOnly /> },
  ];

  const body = (
    <QueryStates query={list}>
      {(page) => (
        <>
          {page.items.length === 0 ? (
            <EmptyState title={search.public ? 'There are no instance-wide deploy keys.' : 'There are no deploy keys on this instance.'} />
          ) : (
            <DataTable caption="Deploy keys" columns={columns} data={page.items} getRowId={(key) => String(key.id)} stale={list.isPlaceholderData} />
          )}
          <Paginator page={page} label="Deploy keys pages" />
        </>
      )}
    </QueryStates>
  );

  return (
    <>
      <div className="filter-bar" role="toolbar" aria-label="Deploy key actions">
        <button type="button" className="button button--primary" disabled={readOnly !== null} title={readOnly ?? undefined} onClick={() => setAdding(true)}>
          Add instance deploy key
        </button>
        <label className="checkbox">
          <input type="checkbox" checked={wanted.public} onChange={(event) => setSearch({ public: event.target.checked })} /> Instance-wide keys only
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as InstanceDeployKeysSearch['per_page'] })} />
      </div>
      {body}
      {adding ? <AddDeployKeyDialog onClose={() => setAdding(false)} target="instance" /> : null}
    </>
  );
}
