import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQueries, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { mergeRequestsQueries, type Discussion, type MergeRequestDetail } from '../../api/merge-requests.ts';
import type { CommitDiff } from '../../api/commits.ts';
import type { Connection } from '../../api/http.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import type { DiffLine } from '../../lib/diff.ts';
import { useIdleSinceMount } from '../../components/list-hooks.ts';
import { useProjectAuthorCaller } from '../../components/use-project-caller.ts';
import { collapsedFiles, currentFile, diffEntries, diffRows, fileTree, pagesAfterFirst, rowOfAnchor, type DiffEntry } from './diff-model.ts';
import { lineAnchor, lineLabel, onCurrentChanges, positionAnchor } from './line-anchors.ts';
import { commentRefusal, updateRefusal } from './merge-request-overview-access.ts';
import type { LinePosition } from './merge-request-overview-mutations.ts';
import { useAllDiscussions } from './all-discussions.ts';
import { useViewedFiles } from './viewed-files.ts';
import { DiffList, type DiffListHandle } from './diff-list.tsx';
import { DiffFileTree } from './diff-file-tree.tsx';
import type { DiffSearch } from './diff-search.ts';
import '../../components/highlight.css';
import './diff.css';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// wide enough for the tree beside the changes; narrower, the tree opens on request
const wideScreen = () => typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 60rem)').matches;

/**
 * Every page of the request's changes (100 files a page): the first from the route's loader, the
 * others as soon as the first says they exist (all at once when the instance sends its totals,
 * one after another by `next` when it does not). Files come in page order; a page that failed
 * holds back the ones after it and says so.
 */
function useAllDiffPages(connection: Connection, projectId: number, iid: number) {
  const first = useSuspenseQuery(mergeRequestsQueries.diffs(connection, projectId, iid, 1)).data;
  const queryClient = useQueryClient();
  const pages = pagesAfterFirst(first, (page) => queryClient.getQueryData(mergeRequestsQueries.diffs(connection, projectId, iid, page).queryKey)?.nextPage);
  const later = useQueries({ queries: pages.map((page) => mergeRequestsQueries.diffs(connection, projectId, iid, page)) });
  const loaded = [first];
  let pending = false;
  let failed: (typeof later)[number] | null = null;
  for (const page of later) {
    if (page.data) {
      loaded.push(page.data);
      continue;
    }
    if (page.isError) failed = page;
    else pending = true;
    break;
  }
  // the same pages give the same array: the files are parsed and laid out again only when a page changes
  const kept = useRef<{ pages: unknown[]; files: CommitDiff[] } | null>(null);
  if (!kept.current || kept.current.pages.length !== loaded.length || loaded.some((page, index) => page !== kept.current!.pages[index])) {
    kept.current = { pages: loaded, files: loaded.flatMap((page) => page.items) };
  }
  const files = kept.current.files;
  return { files, total: first.total ?? null, pending, failed };
}

interface DiffViewerProps {
  projectId: number;
  iid: number;
  search: DiffSearch;
  onSearch: (changes: Partial<DiffSearch>) => void;
}

/**
 * The Changes tab: the file tree beside one virtualized list of every file's lines, unified or
 * side by side, whitespace-only changes shown or hidden (both in the URL, with the file last
 * picked in the tree). Lines paint as plain text first and are highlighted once their grammar is in.
 */
export function DiffViewer({ projectId, iid, search, onSearch }: DiffViewerProps) {
  const connection = useConnection();
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const { files, total, pending, failed } = useAllDiffPages(connection, projectId, iid);
  const hideWhitespace = search.whitespace === 'hide';
  const entries = useMemo(() => diffEntries(files, hideWhitespace), [files, hideWhitespace]);
  // the files the reader opened or closed
  const [toggled, setToggled] = useState<ReadonlySet<number>>(new Set());
  const { viewed, mark } = useViewedFiles(projectId, iid, entries);
  const collapsed = useMemo(() => collapsedFiles(entries, toggled, viewed), [entries, toggled, viewed]);
  const lines = useLineThreads(projectId, iid, request);
  const rows = useMemo(() => diffRows(entries, search.view, collapsed, lines.threaded), [entries, search.view, collapsed, lines.threaded]);
  const tree = useMemo(() => fileTree(entries), [entries]);
  const listRef = useRef<DiffListHandle>(null);
  const [inView, setInView] = useState<{ top: number; bottom: number } | null>(null);
  const onFilesInView = useCallback((top: number, bottom: number) => setInView({ top, bottom }), []);
  const treeId = useId();
  const [treeOpen, setTreeOpen] = useState(wideScreen);

  const onToggle = useCallback(
    (file: number) =>
      setToggled((previous) => {
        const next = new Set(previous);
        if (!next.delete(file)) next.add(file);
        return next;
      }),
    [],
  );

  // marking a file viewed closes it, and unmarking opens it, whatever the reader's presses before
  const onViewed = useCallback(
    (file: number, on: boolean) => {
      const entry = entries[file];
      if (!entry) return;
      mark(entry, on);
      setToggled((previous) => {
        const next = new Set(previous);
        next.delete(file);
        return next;
      });
    },
    [entries, mark],
  );

  const pick = (file: number) => {
    const entry = entries[file];
    if (!entry) return;
    if (collapsed.has(file)) onToggle(file);
    listRef.current?.scrollToFile(file);
    onSearch({ file: entry.path });
    // on a phone the tree covers the changes: out of the way once a file is picked
    if (!wideScreen()) setTreeOpen(false);
  };

  // a line's anchor (#path_old_new) is scrolled to once its file has arrived, and marked
  const hash = useLocation({ select: (location) => location.hash });
  const anchor = decodedHash(hash);
  const selectedRow = anchor ? rowOfAnchor(entries, rows.rows, anchor) : -1;
  const scrolledToLine = useRef<string | null>(null);
  useEffect(() => {
    if (selectedRow < 0 || scrolledToLine.current === anchor) return;
    const first = scrolledToLine.current === null;
    scrolledToLine.current = anchor;
    // a click on a line in view leaves the list where it is; a link from elsewhere centres the line
    if (first) listRef.current?.scrollToRow(selectedRow);
  }, [selectedRow, anchor]);
  const navigate = useNavigate();
  const onSelectLine = useCallback(
    (line: string) =>
      void navigate({
        to: '/projects/$projectId/merge-requests/$mergeRequestIid/changes',
        params: { projectId: String(projectId), mergeRequestIid: String(iid) },
        search: (previous) => previous,
        hash: line,
        replace: true,
        resetScroll: false,
        hashScrollIntoView: false,
      }),
    [navigate, projectId, iid],
  );

  // a link with a file scrolls to it once that file has arrived
  const wanted = entries.findIndex((entry) => entry.path === search.file);
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (wanted < 0 || scrolledTo.current === search.file || anchor) return;
    scrolledTo.current = search.file;
    listRef.current?.scrollToFile(wanted);
  }, [wanted, search.file, anchor]);

  const added = entries.reduce((sum, entry) => sum + entry.shown.additions, 0);
  const removed = entries.reduce((sum, entry) => sum + entry.shown.deletions, 0);
  const count = total ?? entries.length;
  const fileLink = useMemo(
    () => ({ projectId, headSha: request.diff_refs?.head_sha ?? request.sha ?? null, baseSha: request.diff_refs?.base_sha ?? request.diff_refs?.start_sha ?? null }),
    [projectId, request.diff_refs, request.sha],
  );

  if (!entries.length && !pending && !failed) return <p className="muted">This merge request changes no files.</p>;
  return (
    <section className="diff-viewer" aria-label="Changes">
      <div className="diff-viewer__toolbar">
        <button type="button" className="button" aria-expanded={treeOpen} aria-controls={treeOpen ? treeId : undefined} onClick={() => setTreeOpen(!treeOpen)}>
          File tree
        </button>
        <p className="diff-viewer__summary" role="status">
          {formatCountOf(count, 'file', 'files')} changed, <span className="diff-counts__added">+{formatCount(added)}</span>{' '}
          <span className="diff-counts__removed">−{formatCount(removed)}</span>
          {pending ? ` (loading files ${formatCount(entries.length + 1)} and on…)` : ''}
          {viewed.size ? `; ${formatCount(viewed.size)} of ${formatCount(count)} viewed` : ''}
        </p>
        <Choice legend="View" value={search.view} options={[['inline', 'Unified'], ['parallel', 'Side by side']]} onChange={(view) => onSearch({ view })} />
        <Choice legend="Whitespace changes" value={search.whitespace} options={[['show', 'Show'], ['hide', 'Hide']]} onChange={(whitespace) => onSearch({ whitespace })} />
      </div>
      {failed ? <ErrorPanel error={failed.error} onRetry={() => void failed.refetch()} /> : null}
      <div className={`diff-viewer__body${treeOpen ? ' diff-viewer__body--tree' : ''}`}>
        {treeOpen ? <DiffFileTree id={treeId} nodes={tree} entries={entries} viewed={viewed} current={entries[currentFile(wanted, inView)]?.path ?? search.file} onPick={pick} /> : null}
        <DiffList
          handle={listRef}
          entries={entries}
          rows={rows}
          view={search.view}
          collapsed={collapsed}
          onToggle={onToggle}
          viewed={viewed}
          onViewed={onViewed}
          fileLink={fileLink}
          selectedRow={selectedRow}
          onSelectLine={onSelectLine}
          onFilesInView={onFilesInView}
          onComment={lines.mayComment ? (file, line) => lines.compose(entries[file], line) : undefined}
          renderThreads={lines.render}
        />
      </div>
    </section>
  );
}

/**
 * The threads on lines of the changes, by line (read once the changes are on screen), and the one
 * being written: "Comment on line …" opens its form under that line, as on the platform.
 */
function useLineThreads(projectId: number, iid: number, request: MergeRequestDetail) {
  const target = useMemo(() => ({ projectId, iid }), [projectId, iid]);
  const caller = useProjectAuthorCaller(projectId);
  const { discussions } = useAllDiscussions(target, useIdleSinceMount());
  const [composing, setComposing] = useState<{ anchor: string; position: LinePosition; label: string } | null>(null);
  const byLine = useMemo(() => {
    const map = new Map<string, Discussion[]>();
    for (const discussion of discussions) {
      const [first] = discussion.notes;
      const anchor = first.position && !first.system && onCurrentChanges(first.position, request.diff_refs?.head_sha) ? positionAnchor(first.position) : null;
      if (anchor) map.set(anchor, [...(map.get(anchor) ?? []), discussion]);
    }
    return map;
  }, [discussions, request.diff_refs?.head_sha]);
  const threaded = useMemo(() => new Set([...byLine.keys(), ...(composing ? [composing.anchor] : [])]), [byLine, composing]);
  const refs = request.diff_refs;
  const shas = refs?.base_sha && refs.start_sha ? { base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha } : null;
  const mayComment = shas !== null && commentRefusal(caller, Boolean(request.discussion_locked)) === null;
  const mayResolve = updateRefusal(caller, request.author?.id) === null;
  const compose = (entry: DiffEntry, line: DiffLine) => {
    if (!shas) return;
    const position: LinePosition = {
      ...shas,
      old_path: entry.file.old_path,
      new_path: entry.file.new_path,
      // the platform's positions: an added line has only its new number, a removed one only its old
      old_line: line.kind === 'added' ? null : line.oldLine,
      new_line: line.kind === 'removed' ? null : line.newLine,
    };
    setComposing({ anchor: lineAnchor(entry.path, line), position, label: `${entry.path}, ${lineLabel(line)}` });
  };
  const render = (anchors: readonly string[]) => (
    <LineThreads
        target={target}
        caller={caller}
        threads={anchors.flatMap((anchor) => byLine.get(anchor) ?? [])}
        composing={composing && anchors.includes(composing.anchor) ? composing : null}
        onClose={() => setComposing(null)}
        mayResolve={mayResolve}
        mayComment={mayComment}
      />
  );
  return { threaded, mayComment, compose, render };
}

// the threads and their forms arrive with the first line that has one: the changes paint without them
const LineThreads = lazyPart(chunk(() => import('./merge-request-threads.tsx')), (module) => module.LineThreads, <p role="status">Loading the threads…</p>);

/** The hash as the anchor it was made from (the browser percent-encodes a path's spaces). */
function decodedHash(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return hash;
  }
}

/** A labelled group of radio buttons, one value of the URL. */
function Choice<Value extends string>({ legend, value, options, onChange }: { legend: string; value: Value; options: ReadonlyArray<readonly [Value, string]>; onChange: (value: Value) => void }) {
  const name = useId();
  return (
    <fieldset className="diff-viewer__choice">
      <legend>{legend}</legend>
      {options.map(([option, label]) => (
        <label key={option}>
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} /> {label}
        </label>
      ))}
    </fieldset>
  );
}
