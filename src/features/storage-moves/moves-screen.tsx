import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';

import { canReschedule, storageMovesQueries, type StorageMove } from '../../api/storage-moves.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { EmptyState } from '../../components/states.tsx';
import { usePrefetch } from '../../components/list-hooks.ts';
import { useNotify } from '../../components/toast.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Time } from '../../components/time.tsx';
import { RefusedScreen } from '../../components/refused-screen.tsx';
import { moveSubject } from './move-title.ts';
import { useScheduleMove } from './mutations.ts';
import { storageMovesAccess } from './permissions.ts';
import type { MovesSearch } from './search.ts';
import { FormError } from '../../components/form-footer.tsx';
import { Note } from '../../components/note.tsx';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// the forms load after the list, not before its first row
const loadForms = chunk(() => import('./move-forms.tsx'));
const ScheduleMoveForm = lazyPart(loadForms, (module) => module.ScheduleMoveForm);
const BulkMoveForm = lazyPart(loadForms, (module) => module.BulkMoveForm);

const TITLE = 'Repository storage moves';

/** Moves of repositories between the instance's storages (administrators): follow, schedule, reschedule. */
export function MovesScreen({ search }: { search: MovesSearch }) {
  const access = storageMovesAccess(useActiveSession()?.connection);
  if (!access.canView) return <RefusedScreen title={TITLE} reason={access.reason ?? ''} />;
  return (
    <section className="screen" aria-labelledby="storage-moves-heading">
      <header className="screen__header">
        <h1 id="storage-moves-heading">{TITLE}</h1>
      </header>
      <Note>{access.reason}</Note>
      {access.canManage ? (
        <>
          <ScheduleMoveForm />
          <BulkMoveForm />
        </>
      ) : null}
      <MovesList search={search} canManage={access.canManage} />
    </section>
  );
}

function MovesList({ search, canManage }: { search: MovesSearch; canManage: boolean }) {
  const connection = useConnection();
  const notify = useNotify();
  const page = useSuspenseQuery(storageMovesQueries.projectMoves(connection, search)).data;
  const reschedule = useScheduleMove();
  const [rescheduleError, setRescheduleError] = useState<string | null>(null);

  usePrefetch(page.nextPage ? storageMovesQueries.projectMoves(connection, { ...search, page: page.nextPage }) : null);

  const columns = useMemo<ColumnDef<StorageMove>[]>(() => {
    const base: ColumnDef<StorageMove>[] = [
      { id: 'state', header: 'State', cell: ({ row: { original: move } }) => move.state },
      { id: 'project', header: 'Project', cell: ({ row: { original: move } }) => moveSubject(move) },
      {
        id: 'storages',
        header: 'Source → destination',
        cell: ({ row: { original: move } }) => `${move.source_storage_name} → ${move.destination_storage_name}`,
      },
      { id: 'created', header: 'Created', cell: ({ row: { original: move } }) => <Time value={move.created_at} dateOnly /> },
    ];
    if (canManage) {
      base.push({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: move } }) =>
          canReschedule(move) ? (
            <span className="row-actions">
              <button
                type="button"
                className="button"
                aria-label={`Reschedule the move of ${moveSubject(move)} to ${move.destination_storage_name}`}
                disabled={reschedule.isPending}
                onClick={() => {
                  setRescheduleError(null);
                  reschedule.mutate(
                    { kind: 'project', containerId: move.project!.id, destination: move.destination_storage_name },
                    {
                      onSuccess: () => notify(`Scheduled ${moveSubject(move)} again to ${move.destination_storage_name}.`),
                      onError: (error) => setRescheduleError(`${moveSubject(move)}: ${errorText(error)}`),
                    },
                  );
                }}
              >
                Reschedule
              </button>
            </span>
          ) : null,
      });
    }
    return base;
  }, [canManage, reschedule.isPending]);

  return (
    <>
      <FormError message={rescheduleError} write={reschedule} />
      {page.items.length === 0 ? (
        <EmptyState title={search.page > 1 ? 'This page is past the last move.' : 'No project repository has been moved on this instance.'} />
      ) : (
        <DataTable caption="Project repository moves" columns={columns} data={page.items} getRowId={(move) => String(move.id)} />
      )}
      <Paginator page={page} label="Storage moves pages" />
    </>
  );
}
