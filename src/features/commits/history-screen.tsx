import { useEffect, useId, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { commitsQueries, type Commit } from '../../api/commits.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { ListFilters } from '../../components/list-filters.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { SearchLink } from '../../components/search-link.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { Time } from '../../components/time.tsx';
import { historyListParams } from './route-options.ts';
import { HISTORY_SEARCH_DEFAULTS, historySearchSchema, isFiltered, type HistorySearch } from './search.ts';
import { StatsText, TrailerList } from './commit-parts.tsx';
import { groupByDay } from './commit-text.ts';
import { RouteLink } from '../../components/route-link.tsx';

/** A text filter applied on Enter or when it loses focus: a ref or path typed halfway is not a query. */
function TextFilter({ label, value, placeholder, onApply }: { label: string; value: string; placeholder?: string; onApply: (value: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const apply = () => {
    if (draft.trim() !== value) onApply(draft.trim());
  };
  return (
    <label className="inline-field">
      <span>{label}</span>
      <input
        className="input"
        value={draft}
        placeholder={placeholder}
        spellCheck={false}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => event.key === 'Enter' && apply()}
      />
    </label>
  );
}

function CommitRow({ projectId, commit, showTrailers }: { projectId: number; commit: Commit; showTrailers: boolean }) {
  return (
    <li className="commit-row">
      <RouteLink to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: commit.id }}>
        {commit.title || commit.short_id}
      </RouteLink>
      <div className="muted">
        {commit.author_name ?? 'Unknown author'} authored <Time value={commit.authored_date} relative fallback="at an unknown time" /> ·{' '}
        <code>{commit.short_id}</code>
        {commit.parent_ids.length > 1 ? <span className="badge">Merge</span> : null}
        {commit.stats ? (
          <>
            {' '}
            · <StatsText stats={commit.stats} />
          </>
        ) : null}
      </div>
      {showTrailers && Object.keys(commit.extended_trailers).length ? <TrailerList trailers={commit.extended_trailers} /> : null}
    </li>
  );
}

export function HistoryScreen({ projectId, search }: { projectId: number; search: HistorySearch }) {
  const connection = useConnection();
  const params = historyListParams(search);
  const page = useSuspenseQuery(commitsQueries.list(connection, projectId, params)).data;
  const project = useQuery(projectsQueries.detail(connection, projectId)).data;
  const wanted = useRequestedSearch(historySearchSchema, search);
  const setSearch = useSetSearch<HistorySearch>();
  const headingId = useId();
  usePrefetch(page.nextPage ? commitsQueries.list(connection, projectId, { ...params, page: page.nextPage }) : null);

  const refLabel = search.all ? 'every branch and tag' : search.ref_name || project?.default_branch || 'the default branch';
  const groups = groupByDay(page.items);
  return (
    <section className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{project ? `Commits of ${project.name_with_namespace}` : 'Commits'}</h1>
      </header>
      <p className="muted">History of {refLabel}{search.path ? `, touching ${search.path}` : ''}.</p>
      <ListFilters label="Filter commits" active={filtersSet(search, historySearchSchema, HISTORY_SEARCH_DEFAULTS)}>
        <TextFilter label="Branch, tag or range" value={search.ref_name} placeholder={project?.default_branch ?? 'main, v1.0..main'} onApply={(refName) => setSearch({ ref_name: refName, all: false })} />
        <TextFilter label="Path" value={search.path} placeholder="src/app.ts or docs/" onApply={(path) => setSearch({ path })} />
        <TextFilter label="Author" value={search.author} placeholder="Name or email" onApply={(author) => setSearch({ author })} />
        <label className="inline-field">
          <span>Since</span>
          <input type="date" className="input" value={wanted.since} max={wanted.until || undefined} onChange={(event) => setSearch({ since: event.target.value })} />
        </label>
        <label className="inline-field">
          <span>Until</span>
          <input type="date" className="input" value={wanted.until} min={wanted.since || undefined} onChange={(event) => setSearch({ until: event.target.value })} />
        </label>
        <label className="inline-field">
          <span>Order</span>
          <select className="input" value={wanted.order} onChange={(event) => setSearch({ order: event.target.value as HistorySearch['order'] })}>
            <option value="default">Newest first</option>
            <option value="topo">Topological (children before parents)</option>
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={wanted.all} onChange={(event) => setSearch({ all: event.target.checked })} /> All branches and tags
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={wanted.first_parent} onChange={(event) => setSearch({ first_parent: event.target.checked })} /> First parent only
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={wanted.with_stats} onChange={(event) => setSearch({ with_stats: event.target.checked })} /> Show line counts
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={wanted.trailers} onChange={(event) => setSearch({ trailers: event.target.checked })} /> Show trailers
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as HistorySearch['per_page'] })} />
      </ListFilters>
      {page.items.length === 0 ? (
        <EmptyState title={page.page > 1 ? 'There are no more commits.' : isFiltered(search) ? 'No commit matches these filters.' : `No commits on ${refLabel}.`}>
          <p>A branch, tag or range that does not exist also lists nothing.</p>
          {isFiltered(search) || search.ref_name || page.page > 1 ? (
            <SearchLink search={() => ({})} className="button">
              Show the default branch’s history
            </SearchLink>
          ) : null}
        </EmptyState>
      ) : (
        <div className="commit-days">
          {groups.map((group) => (
            <section key={`${group.day}-${group.commits[0].id}`} aria-label={`Commits on ${group.day}`}>
              <h2>{group.day}</h2>
              <ol className="link-list">
                {group.commits.map((commit) => (
                  <CommitRow key={commit.id} projectId={projectId} commit={commit} showTrailers={search.trailers} />
                ))}
              </ol>
            </section>
          ))}
        </div>
      )}
      <Paginator page={page} label="Commit history pages" />
    </section>
  );
}
