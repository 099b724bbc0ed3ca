import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { branchesQueries, type Branch, type ProtectedBranch } from '../../api/branches.ts';
import { useConnection } from '../../api/react.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { RefusableButton } from '../../components/refusable-button.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { Time } from '../../components/time.tsx';
import { deleteRefusal, protectRefusal, pushRefusal, type BranchCaller } from './permissions.ts';
import { describeLevels, rulesFor } from './protection-rules.ts';
import { regexCheckQuery } from './regex-check.ts';
import { BRANCH_SORTS, branchListParams, branchesSearchSchema, isFiltered, type BranchesSearch } from './search.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// mounted only while open; their code comes once the list is painted (usePreloadWhenIdle)
const loadDialogs = chunk(() => import('./branch-dialogs.tsx'));
const CreateBranchDialog = lazyPart(loadDialogs, (module) => module.CreateBranchDialog);
const DeleteBranchDialog = lazyPart(loadDialogs, (module) => module.DeleteBranchDialog);
const DeleteMergedDialog = lazyPart(loadDialogs, (module) => module.DeleteMergedDialog);
const ProtectBranchDialog = lazyPart(loadDialogs, (module) => module.ProtectBranchDialog);
const UnprotectBranchDialog = lazyPart(loadDialogs, (module) => module.UnprotectBranchDialog);

interface BranchesScreenProps {
  projectId: number;
  projectName?: string;
  defaultBranch?: string | null;
  search: BranchesSearch;
}

export function BranchesScreen({ projectId, projectName, defaultBranch, search }: BranchesScreenProps) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const [creating, setCreating] = useState(false);
  const [deletingMerged, setDeletingMerged] = useState(false);
  const push = pushRefusal(caller);
  usePreloadWhenIdle(loadDialogs, !pending && push === null);
  return (
    <section className="screen" aria-labelledby="branches-heading">
      <header className="screen__header">
        <h1 id="branches-heading">{projectName ? `Branches of ${projectName}` : 'Branches'}</h1>
        {pending ? null : (
          <div className="row-actions">
            <button type="button" className="button button--primary" disabled={push !== null} title={push ?? undefined} onClick={() => setCreating(true)}>
              New branch
            </button>
            <button type="button" className="button" disabled={push !== null} title={push ?? undefined} onClick={() => setDeletingMerged(true)}>
              Delete merged branches
            </button>
          </div>
        )}
      </header>
      <RoleUnread failure={failure} />
      {!pending && push ? (
        <p className="notice" role="note">
          {push} Branches can be viewed here.
        </p>
      ) : !pending && protectRefusal(caller) ? (
        <p className="notice" role="note">
          {protectRefusal(caller)}
        </p>
      ) : null}
      <BranchList projectId={projectId} search={search} caller={caller} />
      {creating ? <CreateBranchDialog onClose={() => setCreating(false)} projectId={projectId} defaultRef={defaultBranch ?? ''} /> : null}
      {deletingMerged ? <DeleteMergedDialog onClose={() => setDeletingMerged(false)} projectId={projectId} defaultBranch={defaultBranch ?? null} /> : null}
    </section>
  );
}

type MatchMode = 'search' | 'regex';

function BranchFilters({ search }: { search: BranchesSearch }) {
  const wanted = useRequestedSearch(branchesSearchSchema, search);
  const setSearch = useSetSearch<BranchesSearch>();
  const [mode, setMode] = useState<MatchMode>(search.regex ? 'regex' : 'search');
  useEffect(() => {
    // the URL changed from elsewhere (a link, the back button): follow whichever filter it holds
    if (wanted.regex) setMode('regex');
    else if (wanted.search) setMode('search');
  }, [wanted.regex, wanted.search]);
  const text = mode === 'regex' ? wanted.regex : wanted.search;
  return (
    <div className="filter-bar" role="search" aria-label="Filter branches">
      <label className="inline-field">
        <span>Match</span>
        <select
          className="input"
          value={mode}
          onChange={(event) => {
            const next = event.target.value as MatchMode;
            setMode(next);
            // the text moves along: the platform takes one of the two, never both
            setSearch(next === 'regex' ? { regex: text, search: '' } : { search: text, regex: '' });
          }}
        >
          <option value="search">Name contains</option>
          <option value="regex">Regular expression (RE2)</option>
        </select>
      </label>
      <SearchInput
        key={mode}
        label={mode === 'regex' ? 'Branch name regular expression' : 'Search branches'}
        placeholder={mode === 'regex' ? '^(feature|fix)/' : '^release or -stable$'}
        value={text}
        onSearch={(value) => setSearch(mode === 'regex' ? { regex: value, search: '' } : { search: value, regex: '' })}
      />
      <label className="inline-field">
        <span>Sort</span>
        <select className="input" value={wanted.sort} onChange={(event) => setSearch({ sort: event.target.value as BranchesSearch['sort'] })}>
          {BRANCH_SORTS.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
            </option>
          ))}
        </select>
      </label>
      <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as BranchesSearch['per_page'] })} />
      <p className="field__hint">
        {mode === 'regex'
          ? 'RE2 syntax, matched anywhere in the name: anchor with ^ and $. No lookarounds or backreferences.'
          : 'Case-insensitive. Start with ^ to match the beginning of the name, end with $ to match its end.'}
      </p>
    </div>
  );
}

function BranchList({ projectId, search, caller }: { projectId: number; search: BranchesSearch; caller: BranchCaller }) {
  const connection = useConnection();
  const regexCheck = useQuery({ ...regexCheckQuery(search.regex), enabled: Boolean(search.regex) });
  const regexProblem = search.regex ? (regexCheck.data ?? null) : null;
  // a regex goes out only once RE2 has taken it
  const sendable = !search.regex || regexCheck.data === null;
  const params = branchListParams(search);
  const list = useQuery({ ...branchesQueries.list(connection, projectId, params), enabled: sendable, placeholderData: keepPreviousData });
  const protections = useQuery(branchesQueries.protections(connection, projectId));
  const [deleting, setDeleting] = useState<Branch | null>(null);
  const [protecting, setProtecting] = useState<Branch | null>(null);
  const [unprotecting, setUnprotecting] = useState<Branch | null>(null);
  usePrefetch(list.data?.nextPage && sendable ? branchesQueries.list(connection, projectId, { ...params, page: list.data.nextPage }) : null);
  const rules: readonly ProtectedBranch[] = protections.data ?? [];
  const protect = protectRefusal(caller);
  const push = pushRefusal(caller);

  const columns: ColumnDef<Branch>[] = [
    {
      id: 'name',
      header: 'Branch',
      cell: ({ row: { original: branch } }) => (
        <div>
          <strong>{branch.name}</strong> <BranchBadges branch={branch} />
          {branch.protected ? <ProtectionSummary branch={branch} rules={rules} /> : null}
        </div>
      ),
    },
    {
      id: 'commit',
      header: 'Last commit',
      cell: ({ row: { original: branch } }) => (
        <div>
          <span>{branch.commit.title ?? ''}</span>
          <br />
          <span className="muted">
            <code>{branch.commit.short_id}</code> · {branch.commit.author_name ?? 'unknown author'} ·{' '}
            <Time value={branch.commit.committed_date ?? branch.commit.authored_date} relative fallback="at an unknown time" />
          </span>
        </div>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: branch } }) => {
        const refusal = deleteRefusal(caller, branch);
        return (
          <div className="row-actions">
            {branch.protected ? (
              <button type="button" className="button" disabled={protect !== null} title={protect ?? undefined} aria-label={`Unprotect ${branch.name}`} onClick={() => setUnprotecting(branch)}>
                Unprotect
              </button>
            ) : (
              <button type="button" className="button" disabled={protect !== null} title={protect ?? undefined} aria-label={`Protect ${branch.name}`} onClick={() => setProtecting(branch)}>
                Protect
              </button>
            )}
            {refusal !== null && refusal === push ? (
              // the note above says why for every branch
              <button type="button" className="button button--danger-quiet" disabled aria-label={`Delete ${branch.name}`}>
                Delete
              </button>
            ) : (
              <RefusableButton refusal={refusal} className="button button--danger-quiet" aria-label={`Delete ${branch.name}`} onClick={() => setDeleting(branch)}>
                Delete
              </RefusableButton>
            )}
          </div>
        );
      },
    },
  ];

  let body;
  if (regexProblem) {
    body = (
      <div className="form-error" role="alert">
        RE2 cannot use this regular expression: {regexProblem}
      </div>
    );
  } else {
    body = (
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <FilteredEmptyState filtered={isFiltered(search)} filteredTitle="No branch matches this filter." emptyTitle="This repository has no branches yet." clearLabel="Clear the filter" />
            ) : (
              <DataTable caption="Branches" columns={columns} data={page.items} getRowId={(branch) => branch.name} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label="Branches pages" />
          </>
        )}
      </QueryStates>
    );
  }

  return (
    <>
      <BranchFilters search={search} />
      {body}
      {deleting ? <DeleteBranchDialog branch={deleting} projectId={projectId} onClose={() => setDeleting(null)} /> : null}
      {protecting ? <ProtectBranchDialog branch={protecting} projectId={projectId} onClose={() => setProtecting(null)} /> : null}
      {unprotecting ? <UnprotectBranchDialog branch={unprotecting} rules={rulesFor(unprotecting.name, rules)} projectId={projectId} onClose={() => setUnprotecting(null)} /> : null}
    </>
  );
}

function BranchBadges({ branch }: { branch: Branch }) {
  return (
    <>
      {branch.default ? <span className="badge badge--role">default</span> : null} {branch.protected ? <span className="badge badge--warning">protected</span> : null}{' '}
      {branch.merged ? <span className="badge">merged</span> : null}
    </>
  );
}

function ProtectionSummary({ branch, rules }: { branch: Branch; rules: readonly ProtectedBranch[] }) {
  const rule = rulesFor(branch.name, rules)[0];
  if (!rule) return null;
  return (
    <p className="muted">
      {rule.name !== branch.name ? `Rule ${rule.name}: ` : ''}push: {describeLevels(rule.push_access_levels)} · merge: {describeLevels(rule.merge_access_levels)}
      {rule.allow_force_push ? ' · force push allowed' : ''}
    </p>
  );
}
