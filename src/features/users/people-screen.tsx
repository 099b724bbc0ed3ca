import { useMemo } from 'react';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { usersQueries } from '../../api/users.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable } from '../../components/data-table.tsx';
import { personColumns } from './person-columns.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { EmptyState } from '../../components/states.tsx';

const columns = personColumns('Person');

/** Everyone active on the instance, by name, loaded page by page as the list is read. */
export function PeopleScreen({ search }: { search: string }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const people = useSuspenseInfiniteQuery(usersQueries.directory(connection, search));
  const rows = useMemo(() => people.data.pages.flatMap((page) => page.items), [people.data]);
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
        summary={`${rows.length} ${rows.length === 1 ? 'person' : 'people'}`}
        hasMore={people.hasNextPage}
        loading={people.isFetchingNextPage}
        onLoadMore={() => void people.fetchNextPage()}
      />
    </section>
  );
}
