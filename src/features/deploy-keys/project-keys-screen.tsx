import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { deployKeysQueries, type ProjectDeployKey } from '../../api/deploy-keys.ts';
import { useConnection } from '../../api/react.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { Note } from '../../components/note.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { Time } from '../../components/time.tsx';
import { Expiry, Fingerprints } from './key-cells.tsx';
import { changeRefusal, projectKeysRefusal, type DeployKeyCaller } from './permissions.ts';
import { projectDeployKeysSearchSchema, type ProjectDeployKeysSearch } from './search.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// mounted only while open; their code comes once the list is painted (usePreloadWhenIdle)
const loadDialogs = chunk(() => import('./key-dialogs.tsx'));
const AddDeployKeyDialog = lazyPart(loadDialogs, (module) => module.AddDeployKeyDialog);
const DeleteDeployKeyDialog = lazyPart(loadDialogs, (module) => module.DeleteDeployKeyDialog);
const EditDeployKeyDialog = lazyPart(loadDialogs, (module) => module.EditDeployKeyDialog);
const EnableDeployKeyDialog = lazyPart(loadDialogs, (module) => module.EnableDeployKeyDialog);

interface ProjectKeysScreenProps {
  projectId: number;
  projectName?: string;
  search: ProjectDeployKeysSearch;
}

export function ProjectKeysScreen({ projectId, projectName, search }: ProjectKeysScreenProps) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = projectKeysRefusal(caller);
  return (
    <section className="screen" aria-labelledby="deploy-keys-heading">
      <header className="screen__header">
        <h1 id="deploy-keys-heading">{projectName ? `Deploy keys of ${projectName}` : 'Deploy keys'}</h1>
      </header>
      <RoleUnread failure={failure} withheld="the deploy keys are not shown" />
      {pending ? null : refusal ? (
        <p className="notice" role="note">
          {refusal}
        </p>
      ) : (
        <KeyList projectId={projectId} projectName={projectName ?? 'this project'} search={search} caller={caller} />
      )}
    </section>
  );
}

function KeyList({ projectId, projectName, search, caller }: { projectId: number; projectName: string; search: ProjectDeployKeysSearch; caller: DeployKeyCaller }) {
  const connection = useConnection();
  const list = useQuery({ ...deployKeysQueries.project(connection, projectId, search), placeholderData: keepPreviousData });
  const setSearch = useSetSearch<ProjectDeployKeysSearch>();
  const wanted = useRequestedSearch(projectDeployKeysSearchSchema, search);
  const [adding, setAdding] = useState(false);
  const [enabling, setEnabling] = useState(false);
  const [editing, setEditing] = useState<ProjectDeployKey | null>(null);
  const [deleting, setDeleting] = useState<ProjectDeployKey | null>(null);
  usePrefetch(list.data?.nextPage ? deployKeysQueries.project(connection, projectId, { ...search, page: list.data.nextPage }) : null);
  const readOnly = changeRefusal(caller);
  usePreloadWhenIdle(loadDialogs, readOnly === null);

  const columns: ColumnDef<ProjectDeployKey>[] = [
    { id: 'title', header: 'Title', cell: ({ row: { original: key } }) => <strong>{key.title}</strong> },
    { id: 'fingerprint', header: 'Fingerprint', cell: ({ row: { original: key } }) => <Fingerprints deployKey={key} /> },
    {
      id: 'access',
      header: 'Access',
      cell: ({ row: { original: key } }) => (key.can_push ? <span className="badge badge--warning">Read-write</span> : <span className="badge">Read-only</span>),
    },
    { id: 'expires', header: 'Expires', cell: ({ row: { original: key } }) => <Expiry value={key.expires_at} /> },
    { id: 'created', header: 'Created', cell: ({ row: { original: key } }) => <Time value={key.created_at} dateOnly /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: key } }) => (
        <div className="row-actions">
          <button type="button" className="button" disabled={readOnly !== null} title={readOnly ?? undefined} aria-label={`Edit ${key.title}`} onClick={() => setEditing(key)}>
            Edit
          </button>
          <button type="button" className="button button--danger-quiet" disabled={readOnly !== null} title={readOnly ?? undefined} aria-label={`Remove ${key.title}`} onClick={() => setDeleting(key)}>
            Remove
          </button>
        </div>
      ),
    },
  ];

  const body = (
    <QueryStates query={list}>
      {(page) => (
        <>
          {page.items.length === 0 ? (
            <EmptyState title="This project has no deploy keys.">
              <p>Add one, or enable a key another project already uses.</p>
            </EmptyState>
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
      <Note>{readOnly}</Note>
      <div className="filter-bar" role="toolbar" aria-label="Deploy key actions">
        <button type="button" className="button button--primary" disabled={readOnly !== null} title={readOnly ?? undefined} onClick={() => setAdding(true)}>
          Add deploy key
        </button>
        <button type="button" className="button" disabled={readOnly !== null} title={readOnly ?? undefined} onClick={() => setEnabling(true)}>
          Enable an existing key
        </button>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as ProjectDeployKeysSearch['per_page'] })} />
      </div>
      {body}
      {adding ? <AddDeployKeyDialog onClose={() => setAdding(false)} target={{ project: projectId }} /> : null}
      {enabling ? <EnableDeployKeyDialog onClose={() => setEnabling(false)} projectId={projectId} /> : null}
      {editing ? <EditDeployKeyDialog projectId={projectId} deployKey={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeleteDeployKeyDialog projectId={projectId} projectName={projectName} deployKey={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
