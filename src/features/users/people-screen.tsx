import { useMemo } from 'react';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { usersQueries, type DirectoryUser } from '../../api/users.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { PersonCell } from '../../components/person-cell.tsx';
import { BreakableText } from '../../components/breakable-text.tsx';
import { Time } from '../../components/time.tsx';
import { formatCountOf } from '../../lib/numbers.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { EmptyState } from '../../components/states.tsx';

/**
 * Everyone listed is active, so no state column; what an administrator's answer adds (e-mail,
 * last activity, who administers the instance) gets columns when the rows carry it.
 */
function directoryColumns(rows: readonly DirectoryUser[]): ColumnDef<DirectoryUser>[] {
  const columns: ColumnDef<DirectoryUser>[] = [
    {
      id: 'person',
      header: 'Person',
      cell: ({ row: { original: person } }) => <PersonCell person={person}>{person.is_admin ? <span className="badge">Admin</span> : null}</PersonCell>,
    },
  ];
  if (rows.some((person) => person.email)) columns.push({ id: 'email', header: 'Email', cell: ({ row }) => <BreakableText text={row.original.email ?? ''} /> });
  if (rows.some((person) => person.last_activity_on !== undefined)) {
    columns.push({ id: 'activity', header: 'Last activity', cell: ({ row }) => <Time value={row.original.last_activity_on} dateOnly fallback="Never" /> });
  }
  return columns;
}

/** Everyone active on the instance, by name, loaded page by page as the list is read. */
export function PeopleScreen({ search }: { search: string }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const people = useSuspenseInfiniteQuery(usersQueries.directory(connection, search));
  const rows = useMemo(() => people.data.pages.flatMap((page) => page.items), [people.data]);
  const columns = useMemo(() => directoryColumns(rows), [rows]);
  return (
    <section className="screen" aria-labelledby="people-heading">
      <h1 id="people-heading">People</h1>
      <div className="filter-bar" role="search" aria-label="Filter people">
        <SearchInput
          label="Search people"
          value={search}
          onSearch={(text) => void navigate({ to: '.', search: { search: text || undefined } as never, replace: true })}
          placeholder="Name, username or public email"
        />
      </div>
      {rows.length === 0 ? (
        <EmptyState title={search ? `Nobody active matches “${search}”.` : 'No active people.'} />
      ) : (
        <DataTable caption="People" columns={columns} data={rows} getRowId={(user) => String(user.id)} />
      )}
      {people.isFetchNextPageError ? <ErrorPanel error={people.error} onRetry={() => void people.fetchNextPage()} /> : null}
      <LoadMore
        summary={formatCountOf(rows.length, 'person', 'people')}
        hasMore={people.hasNextPage}
        loading={people.isFetchingNextPage}
        onLoadMore={() => void people.fetchNextPage()}
      />
    </section>
  );
}
