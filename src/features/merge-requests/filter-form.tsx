import { useParams } from '@tanstack/react-router';
import { FilterBar, type FilterScope } from '../../components/filter-bar.tsx';
import { mergeRequestTokens, type MergeRequestsSearch } from './search.ts';

/** The list's place from the route: labels, milestones and branches are suggested from there. */
function useFilterScope(): FilterScope {
  const params = useParams({ strict: false }) as { projectId?: string; groupId?: string };
  if (params.projectId) return { project: Number(params.projectId) };
  if (params.groupId) return { group: Number(params.groupId) };
  return 'instance';
}

/**
 * The merge request lists' filters as tokens (`reviewer is None`, `label is not wontfix`), the
 * same bar as the issue lists: every token is in the URL, and each change is one navigation.
 */
export function MergeRequestFilterForm({ search, onChange }: { search: MergeRequestsSearch; onChange: (search: MergeRequestsSearch) => void }) {
  return <FilterBar label="Filter merge requests" scope={useFilterScope()} model={mergeRequestTokens} search={search} onChange={onChange} />;
}
