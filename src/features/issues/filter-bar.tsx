import type { IssueScope } from '../../api/issues.ts';
import { FilterBar as TokenFilterBar } from '../../components/filter-bar.tsx';
import { issueTokens, type IssuesSearch, type TokenField } from './search.ts';

interface FilterBarProps {
  scope: IssueScope;
  search: IssuesSearch;
  onChange: (search: IssuesSearch) => void;
}

/** The issue lists' filter bar: the shared token bar with the issues' fields, and "In" beside Search. */
export function FilterBar({ scope, search, onChange }: FilterBarProps) {
  const searchIn = (field: TokenField) =>
    field === 'search' ? (
      <label className="inline-field">
        <span>In</span>
        <select className="input" value={search.in ?? ''} onChange={(event) => onChange({ ...search, in: (event.target.value || undefined) as IssuesSearch['in'], page: 1 })}>
          <option value="">Title and description</option>
          <option value="title">Title</option>
          <option value="description">Description</option>
        </select>
      </label>
    ) : null;
  return <TokenFilterBar label="Filter issues" scope={scope} model={issueTokens} search={search} onChange={onChange} extra={searchIn} />;
}
