import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { useConnection } from '../../api/react.ts';
import { registryQueries, type RegistryTag } from '../../api/registry.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { CLEANUP_REASON_TEXT, compileCleanupRules, planCleanup, type CleanupDecision, type CleanupField, type CleanupReason, type CleanupRules, type CleanupTag } from '../../lib/registry-cleanup.ts';
import { mayReadRules, protectionMatcher, type ProtectionCaller } from './protection.ts';
import { REASON_CODES, type PreviewAnswer, type PreviewRequest } from './preview-protocol.ts';
import previewWorkerUrl from './preview.worker.ts?worker&url';

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
  const readable = mayReadRules(caller);
  const rules = useQuery({ ...registryQueries.protectionRules(connection, projectId), enabled: readable });
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
  const unreadable = !readable || (rules.error instanceof ApiError && (rules.error.status === 403 || rules.error.status === 404));
  return { protectedNames, ready: protectedNames !== null || rules.isError || !readable, unreadable, error: rules.error };
}

export interface PreviewResult {
  errors: Partial<Record<CleanupField, string>>;
  /** What does not stop the rules but surprises people (a top-level |), by field. */
  warnings: Partial<Record<CleanupField, string>>;
  decisions: CleanupDecision[] | null;
  deleted: number;
  kept: number;
  /** No answer yet for these tags. */
  planning?: boolean;
  /** The answer shown is for rules or tags older than the current ones: the current plan is on its way. */
  stale?: boolean;
}

/** The tags as the rules module takes them (`protected` from the rules that refuse this caller). */
export function useCleanupTags(rows: readonly RegistryTag[], protectedNames: ReadonlySet<string> | null): CleanupTag[] {
  return useMemo(() => toCleanupTags(rows, protectedNames), [rows, protectedNames]);
}

export function toCleanupTags(rows: readonly RegistryTag[], protectedNames: ReadonlySet<string> | null): CleanupTag[] {
  return rows.map((tag) => ({ name: tag.name, createdAt: tag.created_at ?? null, protected: protectedNames?.has(tag.name) ?? false }));
}

/** User Timing names: the plan's time in the worker, and the main thread's time to take its answer in. */
export const PREVIEW_MEASURE = 'registry-cleanup-preview';
export const PREVIEW_WORKER_MEASURE = 'registry-cleanup-preview-worker';

/** Compiles the rules and plans over every tag, here: where no worker can start. */
export function previewCleanup(tags: readonly CleanupTag[], rules: CleanupRules, now: number): PreviewResult {
  const compiled = compileCleanupRules(rules);
  if (!compiled.ok) return { errors: compiled.errors, warnings: compiled.warnings, decisions: null, deleted: 0, kept: 0 };
  const decisions = planCleanup(tags, compiled.rules, now);
  let deleted = 0;
  for (const decision of decisions) if (decision.deleted) deleted++;
  return { errors: {}, warnings: compiled.rules.warnings, decisions, deleted, kept: decisions.length - deleted };
}

interface ScriptUrlPolicy {
  createScriptURL(input: string): unknown;
}

// The console's CSP names this Trusted Types policy (server/security.ts): it vouches for the
// preview worker's own URL and nothing else. Made once: the CSP allows no second of the name.
const workerPolicy: ScriptUrlPolicy | undefined = (
  globalThis as { trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(input: string): string }): ScriptUrlPolicy } }
).trustedTypes?.createPolicy('registry-preview', {
  createScriptURL: (url) => {
    if (url !== previewWorkerUrl) throw new TypeError('The registry preview starts only its own worker');
    return url;
  },
});

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    const url = workerPolicy ? workerPolicy.createScriptURL(previewWorkerUrl) : previewWorkerUrl;
    // built, the worker is one classic script; in development Vite serves it as a module
    return new Worker(url as string, { type: import.meta.env.DEV ? 'module' : 'classic', name: 'registry-preview' });
  } catch {
    return null;
  }
}

const EMPTY: PreviewResult = { errors: {}, warnings: {}, decisions: null, deleted: 0, kept: 0, planning: true };

/**
 * The preview of the rules as typed, planned in a worker (preview.worker.ts) so that typing never
 * waits for RE2 over every tag; only the latest answer for the current tags is taken in. Where no
 * worker starts, planned here on a deferred render.
 */
export function usePreview(tags: readonly CleanupTag[], rules: CleanupRules, now: number): PreviewResult {
  // compared as text: a form hands a new rules object on every render
  const key = JSON.stringify(rules);
  const worker = useRef<Worker | null | undefined>(undefined);
  const latest = useRef({ id: 0, tagsVersion: 0, tags, key });
  // with the rules and tags it answers: an answer for older ones is shown as stale
  const [answer, setAnswer] = useState<PreviewResult & { basis?: { key: string; tags: readonly CleanupTag[] } }>(EMPTY);
  const [fallback, setFallback] = useState(false);
  useEffect(() => {
    const started = startWorker();
    worker.current = started;
    if (!started) {
      setFallback(true);
      return;
    }
    started.onmessage = (event: MessageEvent<PreviewAnswer>) => {
      const reply = event.data;
      if (reply.id !== latest.current.id || reply.tagsVersion !== latest.current.tagsVersion) return;
      const received = performance.now();
      const current = latest.current.tags;
      const decisions = reply.reasons
        ? Array.from(reply.reasons, (code, index): CleanupDecision => ({ name: current[index].name, deleted: REASON_CODES[code] === 'deleted', reason: REASON_CODES[code] }))
        : null;
      const basis = { key: latest.current.key, tags: current };
      setAnswer({ errors: reply.errors, warnings: reply.warnings, decisions, deleted: reply.deleted, kept: decisions ? decisions.length - reply.deleted : 0, basis });
      if (decisions && current.length) {
        performance.measure(PREVIEW_WORKER_MEASURE, { start: received - reply.ms, end: received, detail: current.length });
        performance.measure(PREVIEW_MEASURE, { start: received, detail: current.length });
      }
    };
    started.onerror = () => setFallback(true);
    return () => started.terminate();
  }, []);
  useEffect(() => {
    if (!worker.current) return;
    latest.current = { ...latest.current, tagsVersion: latest.current.tagsVersion + 1, tags };
    worker.current.postMessage({ type: 'tags', version: latest.current.tagsVersion, tags: tags as CleanupTag[] } satisfies PreviewRequest);
  }, [tags]);
  useEffect(() => {
    if (!worker.current) return;
    latest.current.id++;
    latest.current.key = key;
    worker.current.postMessage({ type: 'plan', id: latest.current.id, rules: JSON.parse(key) as CleanupRules, now } satisfies PreviewRequest);
  }, [key, tags, now]);
  const deferredKey = useDeferredValue(key);
  const here = useMemo(() => (fallback ? previewCleanup(tags, JSON.parse(deferredKey) as CleanupRules, now) : null), [fallback, tags, deferredKey, now]);
  if (here) return deferredKey === key ? here : { ...here, stale: true };
  const { basis, ...shown } = answer;
  return basis && (basis.key !== key || basis.tags !== tags) ? { ...shown, stale: true } : shown;
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
        {decisions
          ? `${formatCount(preview.deleted)} to delete, ${formatCount(preview.kept)} kept${preview.stale ? ' (updating to the rules as typed…)' : ''}`
          : preview.planning
            ? 'Planning…'
            : 'Correct the rules to see the preview.'}
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
          <DataTable caption={label} columns={columns} data={rows} getRowId={(decision) => decision.name} stale={preview.stale} />
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
