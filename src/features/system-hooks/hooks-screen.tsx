import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link} from '@tanstack/react-router';
import { systemHooksQueries, type SystemHook } from '../../api/system-hooks.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { EmptyState } from '../../components/states.tsx';
import { usePrefetch } from '../../components/list-hooks.ts';
import { Note } from '../../components/note.tsx';
import { useNotify } from '../../components/toast.tsx';
import { Time } from '../../components/time.tsx';
import { RefusedScreen } from '../../components/refused-screen.tsx';
import { hookEventsText, hookTitle } from './hook-title.ts';
import { systemHooksAccess } from './permissions.ts';
import type { HooksSearch } from './search.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the confirmation loads after the list, not before its first row
const loadDialogs = chunk(() => import('./hook-dialogs.tsx'));
const DeleteHookDialog = lazyPart(loadDialogs, (module) => module.DeleteHookDialog);

const TITLE = 'System hooks';

/** The instance's system hooks (administrators): list, add, edit, delete. */
export function HooksScreen({ search }: { search: HooksSearch }) {
  const access = systemHooksAccess(useActiveSession()?.connection);
  if (!access.canView) return <RefusedScreen title={TITLE} reason={access.reason ?? ''} />;
  return <HooksList search={search} canManage={access.canManage} reason={access.reason} />;
}

function HooksList({ search, canManage, reason }: { search: HooksSearch; canManage: boolean; reason: string | null }) {
  const connection = useConnection();
  const notify = useNotify();
  const page = useSuspenseQuery(systemHooksQueries.list(connection, search)).data;
  const [deleting, setDeleting] = useState<SystemHook | null>(null);

  usePrefetch(page.nextPage ? systemHooksQueries.list(connection, { ...search, page: page.nextPage }) : null);
  usePreloadWhenIdle(loadDialogs, canManage);

  const columns = useMemo<ColumnDef<SystemHook>[]>(() => {
    const base: ColumnDef<SystemHook>[] = [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row: { original: hook } }) => (
          <RouteLink to="/admin/hooks/$hookId" params={{ hookId: String(hook.id) }}>
            {hookTitle(hook)}
          </RouteLink>
        ),
      },
      // the URL template as text: placeholders, never the variables' values
      { id: 'url', header: 'URL', cell: ({ row: { original: hook } }) => <code>{hook.url}</code> },
      { id: 'events', header: 'Events', cell: ({ row: { original: hook } }) => hookEventsText(hook) },
      { id: 'ssl', header: 'SSL verification', cell: ({ row: { original: hook } }) => (hook.enable_ssl_verification ? 'Enabled' : 'Disabled') },
      { id: 'created', header: 'Created', cell: ({ row: { original: hook } }) => <Time value={hook.created_at} dateOnly /> },
    ];
    if (canManage) {
      base.push({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: hook } }) => (
          <span className="row-actions">
            <button type="button" className="button button--danger-quiet" aria-label={`Delete ${hookTitle(hook)}`} onClick={() => setDeleting(hook)}>
              Delete
            </button>
          </span>
        ),
      });
    }
    return base;
  }, [canManage]);

  return (
    <section className="screen" aria-labelledby="system-hooks-heading">
      <header className="screen__header">
        <h1 id="system-hooks-heading">{TITLE}</h1>
        {canManage ? (
          <Link to="/admin/hooks/new" className="button button--primary">
            Add system hook
          </Link>
        ) : null}
      </header>
      <Note>{reason}</Note>
      {page.items.length === 0 ? (
        <EmptyState title={search.page > 1 ? 'This page is past the last system hook.' : 'This instance has no system hooks.'} />
      ) : (
        <DataTable caption="System hooks" columns={columns} data={page.items} getRowId={(hook) => String(hook.id)} />
      )}
      <Paginator page={page} label="System hooks pages" />
      {canManage ? (
        <>
          {deleting ? <DeleteHookDialog hook={deleting} onClose={() => setDeleting(null)} onDeleted={(hook) => notify(`Deleted ${hookTitle(hook)}.`)} /> : null}
        </>
      ) : null}
    </section>
  );
}
