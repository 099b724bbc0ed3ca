import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { useConnection } from '../../api/react.ts';
import { registryQueries, type RegistryTag } from '../../api/registry.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { CLEANUP_REASON_TEXT, compileCleanupRules, planCleanup, type CleanupDecision, type CleanupField, type CleanupReason, type CleanupRules, type CleanupTag } from '../../lib/registry-cleanup.ts';
import { protectionMatcher, type ProtectionCaller } from './protection.ts';

/**
 * The live preview of a cleanup: every tag of an image, each with what the rules do to it and
 * why, computed in the browser with the same module (and RE2) the platform's rules run through.
 * This file is a lazy chunk: the rules module and re2js load with it, never with the entry.
 */

/** Every tag of an image: the keyset pages are fetched one after another as soon as the preview opens. */
export function useAllTags(projectId: number, repositoryId: number, enabled = true) {
  const connection = useConnection();
  const tags = useInfiniteQuery({ ...registryQueries.tags(connection, projectId, repositoryId), enabled });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = tags;
  useEffect(() => {
    if (enabled && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [enabled, hasNextPage, isFetchingNextPage, isError]);
  const rows = useMemo(() => tags.data?.pages.flatMap((page) => page.items) ?? [], [tags.data]);
  return { rows, done: tags.isSuccess && !hasNextPage, query: tags };
}

/**
 * Which tags a protection rule keeps from this caller. A caller who may not read the rules
 * (they are a Maintainer's) gets null: the platform still refuses those tags, the preview cannot say which.
 */
export function useProtectedNames(projectId: number, caller: ProtectionCaller, rows: readonly RegistryTag[]) {
  const connection = useConnection();
  const rules = useQuery(registryQueries.protectionRules(connection, projectId));
  const [matcher, setMatcher] = useState<((name: string) => unknown) | null>(null);
  useEffect(() => {
    if (!rules.data) return;
    let current = true;
    void protectionMatcher(rules.data, caller).then((match) => current && setMatcher(() => match));
    return () => {
      current = false;
    };
  }, [rules.data, caller.isAdmin, caller.role]);
  const protectedNames = useMemo(() => (matcher ? new Set(rows.filter((tag) => matcher(tag.name)).map((tag) => tag.name)) : null), [matcher, rows]);
  const unreadable = rules.error instanceof ApiError && (rules.error.status === 403 || rules.error.status === 404);
  return { protectedNames, ready: protectedNames !== null || rules.isError, unreadable, error: rules.error };
}

export interface PreviewResult {
  errors: Partial<Record<CleanupField, string>>;
  /** What does not stop the rules but surprises people (a top-level |), by field. */
  warnings: Partial<Record<CleanupField, string>>;
  decisions: CleanupDecision[] | null;
  deleted: number;
  kept: number;
}

/** The tags as the rules module takes them (`protected` from the rules that refuse this caller). */
export function useCleanupTags(rows: readonly RegistryTag[], protectedNames: ReadonlySet<string> | null): CleanupTag[] {
  return useMemo(() => toCleanupTags(rows, protectedNames), [rows, protectedNames]);
}

export function toCleanupTags(rows: readonly RegistryTag[], protectedNames: ReadonlySet<string> | null): CleanupTag[] {
  return rows.map((tag) => ({ name: tag.name, createdAt: tag.created_at ?? null, protected: protectedNames?.has(tag.name) ?? false }));
}

/** Compiles the rules and plans over every tag: one pass per keystroke (measured by the bench). */
export function previewCleanup(tags: readonly CleanupTag[], rules: CleanupRules, now: number): PreviewResult {
  const compiled = compileCleanupRules(rules);
  if (!compiled.ok) return { errors: compiled.errors, warnings: compiled.warnings, decisions: null, deleted: 0, kept: 0 };
  const decisions = planCleanup(tags, compiled.rules, now);
  let deleted = 0;
  for (const decision of decisions) if (decision.deleted) deleted++;
  return { errors: {}, warnings: compiled.rules.warnings, decisions, deleted, kept: decisions.length - deleted };
}

/** The preview of the rules as typed: recomputed on each change (deferred, so typing never waits for it). */
export function usePreview(tags: readonly CleanupTag[], rules: CleanupRules, now: number): PreviewResult {
  // compared as text: a form hands a new rules object on every render
  const key = useDeferredValue(JSON.stringify(rules));
  return useMemo(() => previewCleanup(tags, JSON.parse(key) as CleanupRules, now), [tags, key, now]);
}

/** The module's words for a reason (the outcome has its own column), with the number or age the rules gave. */
export function reasonText(reason: CleanupReason, rules: CleanupRules): string {
  const words = CLEANUP_REASON_TEXT[reason].replace(/^(Kept|Deleted): /, '');
  const text = words.charAt(0).toUpperCase() + words.slice(1);
  if (reason === 'newest-n' && rules.keepN !== null && rules.keepN !== undefined) return `${text} (${rules.keepN})`;
  if ((reason === 'younger' || reason === 'deleted') && rules.olderThan) return `${text} (${reason === 'deleted' ? 'older than' : 'limit'} ${rules.olderThan})`;
  return text;
}

type Shown = 'all' | 'deleted' | 'kept';

/** Every decision, filterable, in a virtualized table; the counts announced as they change. */
export function DecisionList({ preview, rules, label }: { preview: PreviewResult; rules: CleanupRules; label: string }) {
  const [shown, setShown] = useState<Shown>('all');
  const decisions = preview.decisions;
  const rows = useMemo(() => (decisions ? (shown === 'all' ? decisions : decisions.filter((decision) => decision.deleted === (shown === 'deleted'))) : []), [decisions, shown]);
  const columns: ColumnDef<CleanupDecision>[] = [
    { id: 'tag', header: 'Tag', cell: ({ row: { original: decision } }) => decision.name },
    {
      id: 'outcome',
      header: 'Outcome',
      cell: ({ row: { original: decision } }) => (decision.deleted ? <span className="badge badge--warning">Deleted</span> : <span className="badge">Kept</span>),
    },
    { id: 'reason', header: 'Reason', cell: ({ row: { original: decision } }) => reasonText(decision.reason, rules) },
  ];
  return (
    <div className="cleanup-preview">
      <p role="status" aria-live="polite">
        {decisions ? `${formatCount(preview.deleted)} to delete, ${formatCount(preview.kept)} kept` : 'Correct the rules to see the preview.'}
      </p>
      {decisions ? (
        <>
          <label className="inline-field">
            <span>Show</span>
            <select className="input" value={shown} onChange={(event) => setShown(event.target.value as Shown)}>
              <option value="all">All tags</option>
              <option value="deleted">Tags to delete</option>
              <option value="kept">Tags kept</option>
            </select>
          </label>
          <DataTable caption={label} columns={columns} data={rows} getRowId={(decision) => decision.name} />
        </>
      ) : null}
    </div>
  );
}

/** How far the loading of every tag has come. */
export function TagsProgress({ loaded, total, done, error, onRetry }: { loaded: number; total: number | undefined; done: boolean; error: unknown; onRetry: () => void }) {
  if (error) return <ErrorPanel error={error} onRetry={onRetry} />;
  if (done) return null;
  return (
    <div className="scan-progress">
      <label>
        Loading every tag for the preview: {formatCount(loaded)} of {total === undefined ? '…' : formatCount(total)}
        <progress max={total || 1} value={loaded} />
      </label>
    </div>
  );
}
