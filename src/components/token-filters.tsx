import { TOKEN_SORTS, type TokenSort } from '../api/vocabulary.ts';
import { PerPageSelect, SearchInput } from './list-controls.tsx';

/** The filters every token list has (spec 1, 4.2): name search, state, revoked, sort, page size. */
export interface TokenFilterValues {
  search: string;
  state?: 'active' | 'inactive';
  revoked?: boolean;
  sort: TokenSort;
  per_page: 20 | 50 | 100;
}

interface TokenFiltersProps {
  /** What the list shows (the loaded URL), for the debounced search box. */
  search: TokenFilterValues;
  /** What the user just asked for, so a control reflects a click at once. */
  wanted: TokenFilterValues;
  setSearch: (changes: Partial<TokenFilterValues>) => void;
}

export function TokenFilters({ search, wanted, setSearch }: TokenFiltersProps) {
  return (
    <div className="filter-bar" role="search" aria-label="Filter tokens">
      <SearchInput label="Search tokens by name" value={search.search} onSearch={(text) => setSearch({ search: text })} placeholder="Token name" />
      <label className="inline-field">
        <span>State</span>
        <select className="input" value={wanted.state ?? ''} onChange={(event) => setSearch({ state: (event.target.value || undefined) as TokenFilterValues['state'] })}>
          <option value="">Any</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive (revoked or expired)</option>
        </select>
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={wanted.revoked === true} onChange={(event) => setSearch({ revoked: event.target.checked ? true : undefined })} /> Revoked only
      </label>
      <label className="inline-field">
        <span>Sort by</span>
        <select className="input" value={wanted.sort} onChange={(event) => setSearch({ sort: event.target.value as TokenSort })}>
          {TOKEN_SORTS.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
            </option>
          ))}
        </select>
      </label>
      <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as TokenFilterValues['per_page'] })} />
    </div>
  );
}
