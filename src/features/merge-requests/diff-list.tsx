import { memo, useCallback, useEffect, useImperativeHandle, useRef, type MouseEvent, type ReactNode, type Ref } from 'react';
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { DiffLine } from '../../lib/diff.ts';
import type { HighlightNode } from '../../lib/highlight.ts';
import { Highlighted } from '../../components/highlighted.tsx';
import { filesInView, type DiffEntry, type DiffRow, type DiffRows } from './diff-model.ts';
import { lineAnchor, lineLabel } from './line-anchors.ts';
import { useDiffHighlight } from './diff-highlight.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';

// first guesses; each row is measured once drawn (long lines wrap)
const ESTIMATES: Record<DiffRow['type'], number> = { file: 44, hunk: 24, line: 20, split: 20, note: 40, threads: 160 };
// rows beyond the edges: smooth scrolling with a DOM of a few hundred elements
const OVERSCAN = 10;

export interface DiffListHandle {
  /** Scrolls the list so the file's header is at the top. */
  scrollToFile: (file: number) => void;
  /** Scrolls the list so the row is in the middle. */
  scrollToRow: (row: number) => void;
}

/** Where the file browser shows a file: its new path at the request's head, or its old path at the base for a deletion. */
export interface FileLink {
  projectId: number;
  headSha: string | null;
  baseSha: string | null;
}

interface DiffListProps {
  entries: readonly DiffEntry[];
  rows: DiffRows;
  view: 'inline' | 'parallel';
  collapsed: ReadonlySet<number>;
  onToggle: (file: number) => void;
  /** The files the reader marked viewed, and the mark's box pressed. */
  viewed: ReadonlySet<number>;
  onViewed: (file: number, viewed: boolean) => void;
  fileLink: FileLink;
  /** The row of the line in the URL's hash, marked; -1 for none. */
  selectedRow: number;
  /** A line number pressed: its anchor goes to the URL. */
  onSelectLine: (anchor: string) => void;
  /** The first and last file with a row in view, each time they change. */
  onFilesInView: (top: number, bottom: number) => void;
  /** "Comment on line …" pressed: absent where the caller may not comment. */
  onComment?: (file: number, line: DiffLine) => void;
  /** What a threads row holds: the threads on those lines' anchors, and a new one being written. */
  renderThreads: (anchors: readonly string[]) => ReactNode;
  handle: Ref<DiffListHandle>;
}

/**
 * Every file's lines in one virtualized list: only the rows in view (and a few beyond) are in the
 * document, so 5,000 lines scroll like 50. Each file is a group named by its path, its lines a
 * table; the list scrolls in its own box, so a long line never widens the page.
 */
export function DiffList({ entries, rows, view, collapsed, onToggle, viewed, onViewed, fileLink, selectedRow, onSelectLine, onFilesInView, onComment, renderThreads, handle }: DiffListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const list = rows.rows;
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => ESTIMATES[list[index].type],
    getItemKey: (index) => list[index].key,
    overscan: OVERSCAN,
  });
  useImperativeHandle(
    handle,
    () => ({
      scrollToFile: (file) => virtualizer.scrollToIndex(rows.fileStarts[file] ?? 0, { align: 'start' }),
      scrollToRow: (row) => virtualizer.scrollToIndex(row, { align: 'center' }),
    }),
    [virtualizer, rows],
  );
  // rows keep one handler for their lifetime, so scrolling re-renders only the rows that change
  const latestSelect = useRef(onSelectLine);
  latestSelect.current = onSelectLine;
  const onLineClick = useCallback((event: MouseEvent<HTMLAnchorElement>, anchor: string) => {
    // a modified click opens the line's link elsewhere, as links do
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    latestSelect.current(anchor);
  }, []);
  const latestComment = useRef(onComment);
  latestComment.current = onComment;
  const onCommentLine = useCallback((file: number, line: DiffLine) => latestComment.current?.(file, line), []);

  const items = virtualizer.getVirtualItems();
  // the rows in view grouped by file, in order: each group one element named by its path
  const groups: Array<{ file: number; items: typeof items }> = [];
  for (const item of items) {
    const file = list[item.index].file;
    const last = groups[groups.length - 1];
    if (last && last.file === file) last.items.push(item);
    else groups.push({ file, items: [item] });
  }
  const highlighted = useDiffHighlight(entries, groups.map((group) => group.file));
  // the file of the row at the top, named above the rows while its own header is scrolled away
  const offset = virtualizer.scrollOffset ?? 0;
  const top = items.find((item) => item.end > offset);
  const topFile = top && list[top.index].type !== 'file' ? entries[list[top.index].file] : null;
  const inView = filesInView(items, list, offset, virtualizer.scrollRect?.height ?? 0);
  const [topInView, bottomInView] = inView ? [inView.top, inView.bottom] : [-1, -1];
  useEffect(() => {
    if (topInView >= 0) onFilesInView(topInView, bottomInView);
  }, [topInView, bottomInView, onFilesInView]);

  return (
    <div ref={scrollRef} className="diff-list" tabIndex={0} role="region" aria-label="Changes, file by file">
      {topFile ? (
        // the same words as the file's group name: a reminder for the eye only
        <div className="diff-list__sticky" aria-hidden="true">
          <div className="diff-list__sticky-bar">{topFile.status === 'renamed' ? `${topFile.file.old_path} → ${topFile.file.new_path}` : topFile.path}</div>
        </div>
      ) : null}
      <div className="diff-list__sizer" style={{ height: virtualizer.getTotalSize() }}>
        {groups.map((group) => {
          const entry = entries[group.file];
          const tableItems = group.items.filter((item) => list[item.index].type !== 'file' && list[item.index].type !== 'note');
          const place = (index: number, start: number) => ({ 'data-index': index, ref: virtualizer.measureElement, style: { transform: `translateY(${start}px)` } });
          return (
            <div key={entry.index} role="group" aria-label={entry.path} className="diff-list__file">
              {group.items.map((item) => {
                const row = list[item.index];
                if (row.type === 'file') return (
                    <FileHeader
                      key={row.key}
                      {...place(item.index, item.start)}
                      entry={entry}
                      open={!collapsed.has(entry.index)}
                      onToggle={onToggle}
                      viewed={viewed.has(entry.index)}
                      onViewed={onViewed}
                      fileLink={fileLink}
                    />
                  );
                if (row.type === 'note') return <FileNote key={row.key} {...place(item.index, item.start)} entry={entry} body={row.body} fileLink={fileLink} />;
                return null;
              })}
              {tableItems.length ? (
                <div role="table" aria-label={`Lines of ${entry.path}`} aria-rowcount={rows.tableRows[entry.index]} className={`diff-lines diff-lines--${view}`}>
                  {tableItems.map((item) => {
                    const row = list[item.index];
                    if (row.type === 'threads') {
                      return (
                        <div key={item.key} {...place(item.index, item.start)} role="row" aria-rowindex={row.rowIndex} className="diff-row diff-row--threads">
                          <div role="cell" className="diff-row__threads">
                            {renderThreads(row.anchors)}
                          </div>
                        </div>
                      );
                    }
                    const [first, second] = row.type === 'line' ? [row.line, null] : row.type === 'split' ? [row.row.left, row.row.right] : [null, null];
                    return (
                      <LineRow
                        key={item.key}
                        row={row}
                        path={entry.path}
                        index={item.index}
                        start={item.start}
                        selected={item.index === selectedRow}
                        measure={virtualizer.measureElement}
                        firstNodes={first ? highlighted(entry, first) : undefined}
                        secondNodes={second ? highlighted(entry, second) : undefined}
                        onLineClick={onLineClick}
                        onComment={onComment ? onCommentLine : undefined}
                      />
                    );
                  })}
                </div>
              ) : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface PlacedProps {
  'data-index': number;
  ref: (element: Element | null) => void;
  style: { transform: string };
}

const STATUS_TEXT: Record<DiffEntry['status'], string | null> = { added: 'Added', deleted: 'Deleted', renamed: 'Renamed', modified: null };

function fileHref(entry: DiffEntry, link: FileLink) {
  const deleted = entry.status === 'deleted';
  const ref = deleted ? link.baseSha : link.headSha;
  return { to: '/projects/$projectId/blob/$', params: { projectId: String(link.projectId), _splat: entry.path }, search: ref ? { ref } : {} } as const;
}

interface FileHeaderProps {
  entry: DiffEntry;
  open: boolean;
  onToggle: (file: number) => void;
  viewed: boolean;
  onViewed: (file: number, viewed: boolean) => void;
  fileLink: FileLink;
}

const FileHeader = memo(function FileHeader({ entry, open, onToggle, viewed, onViewed, fileLink, ...placed }: PlacedProps & FileHeaderProps) {
  const status = STATUS_TEXT[entry.status];
  const counted = entry.body === 'lines' || entry.body === 'whitespace-only';
  return (
    <div {...placed} className="diff-file">
      <h2 className="diff-file__title">
        <button type="button" className="diff-file__toggle" aria-expanded={open} onClick={() => onToggle(entry.index)}>
          <span aria-hidden="true" className="diff-file__chevron">{open ? '▾' : '▸'}</span>{' '}
          {entry.status === 'renamed' ? (
            <>
              <span className="diff-file__path"><BreakableText text={entry.file.old_path} /></span> → <span className="diff-file__path"><BreakableText text={entry.file.new_path} /></span>
            </>
          ) : (
            <span className="diff-file__path"><BreakableText text={entry.path} /></span>
          )}
        </button>
      </h2>
      {status ? <span className="badge">{status}</span> : null}
      {entry.file.generated_file ? <span className="badge">Generated</span> : null}
      {counted ? <ChangeCounts added={entry.shown.additions} removed={entry.shown.deletions} /> : null}
      <label className="diff-file__viewed">
        <input type="checkbox" checked={viewed} onChange={(event) => onViewed(entry.index, event.target.checked)} /> Viewed
      </label>
      <Link {...fileHref(entry, fileLink)} className="diff-file__view" aria-label={`View ${entry.path}`}>
        View file
      </Link>
    </div>
  );
});

/** `+12 −3`, read out in words. */
export function ChangeCounts({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="diff-counts">
      <span className="diff-counts__added" aria-hidden="true">+{formatCount(added)}</span> <span className="diff-counts__removed" aria-hidden="true">−{formatCount(removed)}</span>
      <span className="sr-only">
        {formatCountOf(added, 'line', 'lines')} added, {formatCount(removed)} removed
      </span>
    </span>
  );
}

const NOTES: Record<Exclude<DiffEntry['body'], 'lines'>, ReactNode> = {
  'too-large': 'This diff is too large to show.',
  collapsed: 'This diff is collapsed: the instance did not send its lines.',
  binary: 'Binary file: its contents are not shown as text.',
  'no-lines': 'No lines changed.',
  'whitespace-only': 'Only whitespace changed in this file.',
};

function FileNote({ entry, body, fileLink, ...placed }: PlacedProps & { entry: DiffEntry; body: Exclude<DiffEntry['body'], 'lines'>; fileLink: FileLink }) {
  const noLines = body === 'no-lines' ? (entry.status === 'renamed' ? 'Renamed without changes.' : entry.file.a_mode !== entry.file.b_mode ? `Mode changed from ${entry.file.a_mode} to ${entry.file.b_mode}.` : null) : null;
  return (
    <p {...placed} className="diff-note">
      {noLines ?? NOTES[body]}{' '}
      {body === 'too-large' || body === 'collapsed' ? <Link {...fileHref(entry, fileLink)}>View the file</Link> : null}
    </p>
  );
}

interface LineRowProps {
  row: DiffRow;
  path: string;
  index: number;
  start: number;
  selected: boolean;
  measure: (element: Element | null) => void;
  /** The highlighted line (the old side's, side by side), once its file is highlighted. */
  firstNodes: HighlightNode[] | undefined;
  /** Side by side, the new side's. */
  secondNodes: HighlightNode[] | undefined;
  onLineClick: (event: MouseEvent<HTMLAnchorElement>, anchor: string) => void;
  onComment?: (file: number, line: DiffLine) => void;
}

const SIGNS: Record<DiffLine['kind'], string> = { added: '+', removed: '-', context: ' ' };
const KIND_TEXT: Record<DiffLine['kind'], string> = { added: 'Added', removed: 'Removed', context: '' };

const LineRow = memo(function LineRow({ row, path, index, start, selected, measure, firstNodes, secondNodes, onLineClick, onComment }: LineRowProps) {
  const placed = { 'data-index': index, ref: measure, style: { transform: `translateY(${start}px)` }, 'aria-current': selected ? ('true' as const) : undefined };
  // the line's number is its link: on the new side, or the old one for a removed line
  const number = (line: DiffLine | null, side: 'old' | 'new') => {
    const value = side === 'old' ? line?.oldLine : line?.newLine;
    if (!line || value == null) return '';
    if (side === 'old' && line.kind !== 'removed') return value;
    const anchor = lineAnchor(path, line);
    return (
      <a href={`#${encodeURI(anchor)}`} aria-label={`Line ${value}`} onClick={(event) => onLineClick(event, anchor)}>
        {value}
      </a>
    );
  };
  if (row.type === 'hunk') {
    return (
      <div {...placed} role="row" aria-rowindex={row.rowIndex} className="diff-row diff-row--hunk">
        <span role="cell" className="diff-row__hunk">
          {row.header}
        </span>
      </div>
    );
  }
  // a thread starts on a line from a button beside its number, shown on hover and to the keyboard
  const comment = (line: DiffLine | null) =>
    line && onComment ? (
      <button type="button" className="diff-row__comment" aria-label={`Comment on ${lineLabel(line)}`} onClick={() => onComment(row.file, line)}>
        +
      </button>
    ) : null;
  if (row.type === 'line') {
    const { line } = row;
    return (
      <div {...placed} role="row" aria-rowindex={row.rowIndex} className={`diff-row diff-row--${line.kind}`}>
        <span role="cell" className="diff-row__number">
          {comment(line)}
          {number(line, 'old')}
        </span>
        <span role="cell" className="diff-row__number">{line.kind === 'removed' ? '' : number(line, 'new')}</span>
        <CodeCell line={line} nodes={firstNodes} />
      </div>
    );
  }
  if (row.type === 'split') {
    const { left, right } = row.row;
    return (
      <div {...placed} role="row" aria-rowindex={row.rowIndex} className="diff-row diff-row--split">
        <span role="cell" className={`diff-row__number diff-side--${left?.kind ?? 'empty'}`}>
          {left?.kind === 'removed' ? comment(left) : null}
          {left?.kind === 'removed' ? number(left, 'old') : left?.oldLine ?? ''}
        </span>
        <CodeCell line={left} nodes={firstNodes} />
        <span role="cell" className={`diff-row__number diff-side--${right?.kind ?? 'empty'}`}>
          {comment(right)}
          {number(right, 'new')}
        </span>
        <CodeCell line={right} nodes={secondNodes} />
      </div>
    );
  }
  return null;
});

/** A line's text: plain until its file is highlighted; the sign is drawn, and said in words to a screen reader. */
function CodeCell({ line, nodes }: { line: DiffLine | null; nodes: HighlightNode[] | undefined }) {
  if (!line) return <span role="cell" className="diff-row__code diff-side--empty" />;
  const kind = KIND_TEXT[line.kind];
  return (
    <span role="cell" className={`diff-row__code diff-side--${line.kind}`}>
      <span className="diff-row__sign" aria-hidden="true">{SIGNS[line.kind]}</span>
      {kind ? <span className="sr-only">{kind}: </span> : null}
      {nodes?.length ? <Highlighted nodes={nodes} /> : line.text}
      {line.noNewline ? <span className="diff-row__eol" title="No newline at end of file" aria-label="No newline at end of file" role="img">⊘</span> : null}
    </span>
  );
}
