import type { ReactNode } from 'react';
import { keepPreviousData, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Page } from '../api/pagination.ts';
import { useActiveSession } from '../api/react.ts';
import { ChoiceSelect, VisibilityAndRoleFilters } from './choice-select.tsx';
import { DataTable, type ColumnDef } from './data-table.tsx';
import { PerPageSelect, SearchInput } from './list-controls.tsx';
import { usePrefetch, useSetSearch } from './list-hooks.ts';
import { Paginator } from './paginator.tsx';
import { QueryStates } from './query-states.tsx';
import { FilteredEmptyState } from './search-link.tsx';
import { useRequestedSearch } from './use-requested-search.ts';
import type { ScopedListSearch, SearchSchema } from '../lib/search-params.ts';

interface ScopedListScreenProps<Row, S extends ScopedListSearch, P extends { scope: string; page: number }, K extends readonly unknown[]> {
  /** Plural, capitalised: the heading, the table's caption ("Groups"). */
  title: string;
  /** Singular and plural in running text ("group", "groups"). */
  noun: { one: string; many: string };
  search: S;
  schema: SearchSchema<z.ZodMiniType<S>>;
  /** The URL's search as the API's params, the default scope chosen by `isAdmin`. */
  toParams: (search: S, isAdmin: boolean) => P;
  query: (params: P) => UseQueryOptions<Page<Row>, Error, Page<Row>, K>;
  columns: ColumnDef<Row>[];
  scopes: ReadonlyArray<{ value: NonNullable<S['scope']>; label: string }>;
  sorts: ReadonlyArray<{ value: S['sort']; label: string }>;
  searchPlaceholder: string;
  /** The filters only this list has, after visibility and role. */
  extraFilters: (wanted: S, setSearch: (changes: Partial<S>) => void) => ReactNode;
  /** Whether a filter beyond the scope is in force (an empty list then says the filters hid things). */
  filtered: boolean;
  emptyTitles: Record<P['scope'], string>;
}

/** A list of groups or projects with every filter in the URL: one's own, owned, or all (administrators: every one). */
export function ScopedListScreen<Row extends { id: number }, S extends ScopedListSearch, P extends { scope: string; page: number }, K extends readonly unknown[]>(props: ScopedListScreenProps<Row, S, P, K>) {
  const { title, noun, search } = props;
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const params = props.toParams(search, isAdmin);
  const list = useQuery({ ...props.query(params), placeholderData: keepPreviousData });
  usePrefetch(list.data?.nextPage ? props.query({ ...params, page: list.data.nextPage }) : null);
  const setSearch = useSetSearch<S>();
  const wanted = useRequestedSearch(props.schema, search);
  const scope = wanted.scope ?? (params.scope as NonNullable<S['scope']>);
  const headingId = `${noun.many}-heading`;
  const scopes = props.scopes.map((option) => (option.value === 'all' && !isAdmin ? { ...option, label: `All ${noun.many} I can see` } : option));
  return (
    <section className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{title}</h1>
      </header>
      <div className="filter-bar" role="search" aria-label={`Filter ${noun.many}`}>
        <ChoiceSelect label="Show" value={scope} options={scopes} onChange={(value) => setSearch({ scope: value } as Partial<S>)} />
        <SearchInput label={`Search ${noun.many}`} value={search.search} onSearch={(text) => setSearch({ search: text } as Partial<S>)} placeholder={props.searchPlaceholder} />
        <ChoiceSelect label="Sort by" value={wanted.sort} options={props.sorts} onChange={(value) => setSearch({ sort: value } as Partial<S>)} />
        <VisibilityAndRoleFilters value={wanted} onChange={(changes) => setSearch(changes as Partial<S>)} />
        {props.extraFilters(wanted, setSearch)}
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage } as Partial<S>)} />
      </div>
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <FilteredEmptyState
                filtered={props.filtered}
                filteredTitle={`No ${noun.one} matches these filters.`}
                emptyTitle={props.emptyTitles[params.scope as P['scope']]}
                clear={(previous) => ({ scope: previous.scope })}
              />
            ) : (
              <DataTable caption={title} columns={props.columns} data={page.items} getRowId={(row) => String(row.id)} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label={`${title} pages`} />
          </>
        )}
      </QueryStates>
    </section>
  );
}
