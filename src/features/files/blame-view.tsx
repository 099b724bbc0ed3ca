import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { blameQueries, commitTitle, fetchFileSize, type BlameCommit } from '../../api/blame.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { Time } from '../../components/time.tsx';
import { describeSelection, lineHash, selectionAfterClick } from './blame-hash.ts';
import { parseLineHash, type LineSelection } from '../../lib/line-hash.ts';
import {
  BlameRangeLoader, MAX_IN_FLIGHT, estimateLineCount, lineLimitOf, planRanges, startsGroup,
  type FetchRange, type FetchSize, type RangeState,
} from './blame-ranges.ts';
import { firstBlameLines, rangeEnd, rangeIndexOf, rangeStart } from '../../api/first-requests.ts';
import { formatCount } from '../../lib/numbers.ts';
import './blame-view.css';

const ROW_HEIGHT = 20;
const HEADER_HEIGHT = 28;
// enough rows beyond the edges for smooth scrolling; the DOM stays a few hundred nodes
const OVERSCAN = 12;
// lines assumed on screen before the list has measured itself
const GUESSED_SCREEN_LINES = 40;
const MIN_LIST_HEIGHT = 320;
const WINDOW_MARGIN = 16;

interface BlameViewProps {
  projectId: number;
  filePath: string;
  gitRef: string;
}

const linesLabel = (start: number, end: number) => `lines ${formatCount(start)}–${formatCount(end)}`;
const rangeLabel = (index: number, lineCount: number) => linesLabel(rangeStart(index), Math.min(rangeEnd(index), Math.max(lineCount, rangeStart(index))));

function useRangeLoader(projectId: number, filePath: string, gitRef: string): BlameRangeLoader {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const [loader] = useState(() => {
    // through the query cache: coming back to the file shows its ranges at once, and the route's prefetch is shared
    const fetchRange: FetchRange = ({ start, end, ref }, signal) => {
      const options = blameQueries.range(connection, { projectId, filePath, ref, start, end });
      signal.addEventListener('abort', () => void queryClient.cancelQueries({ queryKey: options.queryKey, exact: true }), { once: true });
      return queryClient.fetchQuery(options);
    };
    const fetchSize: FetchSize = (ref, signal) => fetchFileSize(connection, projectId, filePath, ref, signal);
    return new BlameRangeLoader(fetchRange, gitRef, MAX_IN_FLIGHT, fetchSize);
  });
  useEffect(() => {
    loader.activate();
    return () => loader.dispose();
  }, [loader]);
  useSyncExternalStore(loader.subscribe, loader.getSnapshot);
  return loader;
}

/** The blame of one file: lines in ranges of 2,000, at most four requests at once, only the rows in view in the DOM. */
export function BlameView({ projectId, filePath, gitRef }: BlameViewProps) {
  const loader = useRangeLoader(projectId, filePath, gitRef);
  const navigate = useNavigate();
  const notify = useNotify();
  const hash = useLocation({ select: (location) => location.hash });
  const selection = parseLineHash(hash);

  const facts = loader.facts;
  const ready = loader.ready;
  const { count, exact } = estimateLineCount(facts);
  const selectionPastEnd = selection !== null && selection.first > lineLimitOf(facts);
  const focusLine = selection && !selectionPastEnd ? selection.first : null;
  // "Go to line" on the line already in the URL scrolls to it again
  const [jumps, setJumps] = useState(0);

  // before the first lines arrive there is no list yet: ask for those around the asked-for line, or the top
  const firstLines = firstBlameLines(focusLine);
  useEffect(() => {
    loader.openAt(firstLines);
  }, [loader, firstLines.start, firstLines.end]);

  const select = (next: LineSelection | null) =>
    void navigate({
      to: '/projects/$projectId/blame/$',
      params: { projectId: String(projectId), _splat: filePath },
      search: (previous) => previous,
      hash: next ? lineHash(next) : '',
      resetScroll: false,
      hashScrollIntoView: false,
    });

  // rows keep one handler for their lifetime, so scrolling re-renders only the rows that change
  const latestSelection = useRef(selection);
  latestSelection.current = selection;
  const latestSelect = useRef(select);
  latestSelect.current = select;
  const onLineClick = useCallback((event: MouseEvent<HTMLAnchorElement>, line: number) => {
    // a modified click opens the line's link elsewhere, as links do
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    event.preventDefault();
    latestSelect.current(selectionAfterClick(latestSelection.current, line, event.shiftKey));
  }, []);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify(`Link to ${selection ? describeSelection(selection) : 'the file'} copied.`);
    } catch {
      notify('The browser did not allow copying: copy the address from the address bar.');
    }
  };

  const firstView = loader.firstView;
  if (!ready && facts.exact === 0) return <p role="status">This file is empty.</p>;
  if (!ready && firstView?.state === 'failed') return <ErrorPanel error={firstView.error} onRetry={loader.retryFirstView} />;

  return (
    <div className="blame">
      <div className="blame__toolbar">
        <p className="blame__count" role="status">
          {ready ? `${exact ? '' : 'About '}${formatCount(count)} lines` : `Loading ${linesLabel(firstLines.start, firstLines.end)}…`}
        </p>
        <GoToLine
          onGo={(picked) => {
            setJumps((value) => value + 1);
            select(picked);
          }}
        />
        {selection ? (
          <>
            <button type="button" className="button" onClick={() => void copyLink()}>
              Copy link to {describeSelection(selection)}
            </button>
            <button type="button" className="button" onClick={() => select(null)}>
              Clear selection
            </button>
          </>
        ) : null}
      </div>
      {selectionPastEnd ? (
        <p className="notice" role="alert">
          Line {formatCount(selection.first)} is past the end of this file{exact ? `, which has ${formatCount(count)} lines` : ''}.
        </p>
      ) : null}
      {ready ? (
        <BlameList
          loader={loader}
          filePath={filePath}
          projectId={projectId}
          count={count}
          selection={selection}
          focusLine={focusLine}
          scrollKey={`${hash}\0${jumps}`}
          onLineClick={onLineClick}
        />
      ) : (
        <div className="blame__scroll" aria-busy="true" />
      )}
    </div>
  );
}

interface BlameListProps {
  loader: BlameRangeLoader;
  filePath: string;
  projectId: number;
  /** Lines in the list: exact, or estimated until the end of the file is known. */
  count: number;
  selection: LineSelection | null;
  focusLine: number | null;
  /** Changes when the list should scroll to the selection again. */
  scrollKey: string;
  onLineClick: (event: MouseEvent<HTMLAnchorElement>, line: number) => void;
}

/** Mounted once the first lines are in: it starts at the asked-for line, so the top of the file is never drawn or fetched for nothing. */
function BlameList({ loader, filePath, projectId, count, selection, focusLine, scrollKey, onLineClick }: BlameListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollMargin: HEADER_HEIGHT,
    initialOffset: () => (focusLine ? Math.max(0, (focusLine - 1) * ROW_HEIGHT - (GUESSED_SCREEN_LINES / 2) * ROW_HEIGHT) : 0),
  });

  // the list fills the window below the toolbar, so its last row is never under the fold
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const fit = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.height = `${Math.max(MIN_LIST_HEIGHT, window.innerHeight - top - WINDOW_MARGIN)}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);

  // the selection is scrolled to once per hash (and per "Go to line"), as soon as its line is in the list
  const scrolledFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!selection || scrolledFor.current === scrollKey || selection.first > count) return;
    const firstScroll = scrolledFor.current === null;
    scrolledFor.current = scrollKey;
    const element = scrollRef.current;
    if (!element) return;
    // the element's own scroll position: the virtualizer's may still be its initial guess
    const rowTop = HEADER_HEIGHT + (selection.first - 1) * ROW_HEIGHT;
    const inView = rowTop >= element.scrollTop + HEADER_HEIGHT && rowTop + ROW_HEIGHT <= element.scrollTop + element.clientHeight;
    // a deep link is centred; a click on a line in view must not move the list under the pointer
    if (firstScroll || !inView) virtualizer.scrollToIndex(selection.first - 1, { align: 'center' });
  });

  const shown = virtualizer.range;
  const firstVisible = shown ? shown.startIndex + 1 : (focusLine ?? 1);
  const lastVisible = shown ? shown.endIndex + 1 : firstVisible + GUESSED_SCREEN_LINES;
  const plan = planRanges({ firstLine: firstVisible, lastLine: lastVisible, focusLine, lineLimit: lineLimitOf(loader.facts) }).join(',');
  useEffect(() => {
    loader.want(plan.split(',').filter(Boolean).map(Number));
  }, [loader, plan]);

  const items = virtualizer.getVirtualItems();
  // the first row not hidden under the sticky column headers
  const viewTop = (virtualizer.scrollOffset ?? 0) + HEADER_HEIGHT;
  const firstShownLine = (items.find((item) => item.end > viewTop)?.index ?? 0) + 1;
  // each range not loaded says so once, on its first line in view that the first view does not hold either
  const statusLines = new Map<number, number>();
  for (const item of items) {
    const line = item.index + 1;
    const index = rangeIndexOf(line);
    if (line >= firstShownLine && !statusLines.has(index) && loader.get(index)?.state !== 'loaded' && !loader.lineAt(line)) statusLines.set(index, line);
  }
  const statusAt = new Set(statusLines.values());
  const loading = [...statusLines.keys()].some((index) => loader.get(index)?.state === 'loading');

  return (
    <div ref={scrollRef} className="blame__scroll">
      <div role="table" aria-label={`Blame of ${filePath}`} aria-rowcount={count + 1} aria-busy={loading}>
        <div role="rowgroup" className="blame__head">
          <div role="row" aria-rowindex={1} className="blame__row">
            <span role="columnheader" className="blame__commit">
              Commit
            </span>
            <span role="columnheader" className="blame__number">
              Line
            </span>
            <span role="columnheader" className="blame__code">
              Code
            </span>
          </div>
        </div>
        <div role="rowgroup" className="blame__body" style={{ height: virtualizer.getTotalSize() - HEADER_HEIGHT }}>
          {items.map((item) => {
            const line = item.index + 1;
            const info = loader.lineAt(line);
            const index = rangeIndexOf(line);
            const opensGroup = info !== null && startsGroup(loader.lineAt, line);
            return (
              <BlameRow
                key={line}
                line={line}
                top={item.start - HEADER_HEIGHT}
                text={info?.text ?? null}
                commit={info && (opensGroup || line === firstShownLine) ? info.group.commit : null}
                opensGroup={opensGroup}
                selected={selection !== null && line >= selection.first && line <= selection.last}
                status={statusAt.has(line) ? loader.get(index) : undefined}
                rangeIndex={index}
                rangeText={rangeLabel(index, count)}
                projectId={projectId}
                onLineClick={onLineClick}
                onRetry={loader.retry}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface BlameRowProps {
  line: number;
  top: number;
  text: string | null;
  /** The commit, on the first line of its group and on the top line in view. */
  commit: BlameCommit | null;
  opensGroup: boolean;
  selected: boolean;
  status: RangeState | undefined;
  rangeIndex: number;
  rangeText: string;
  projectId: number;
  onLineClick: (event: MouseEvent<HTMLAnchorElement>, line: number) => void;
  onRetry: (rangeIndex: number) => void;
}

const BlameRow = memo(function BlameRow({ line, top, text, commit, opensGroup, selected, status, rangeIndex, rangeText, projectId, onLineClick, onRetry }: BlameRowProps) {
  return (
    <div
      role="row"
      aria-rowindex={line + 1}
      aria-current={selected ? 'true' : undefined}
      className={`blame__row${opensGroup ? ' blame__row--opens' : ''}${selected ? ' blame__row--selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
    >
      <span role="cell" className="blame__commit">
        {commit ? <CommitSummary commit={commit} projectId={projectId} /> : null}
      </span>
      <span role="rowheader" className="blame__number">
        <a href={`#L${line}`} aria-label={`Line ${line}`} onClick={(event) => onLineClick(event, line)}>
          {line}
        </a>
      </span>
      <span role="cell" className="blame__code">
        {text ?? <RangeStatus status={status} rangeText={rangeText} onRetry={() => onRetry(rangeIndex)} />}
      </span>
    </div>
  );
});

function RangeStatus({ status, rangeText, onRetry }: { status: RangeState | undefined; rangeText: string; onRetry: () => void }) {
  if (!status) return null;
  if (status.state === 'failed') {
    return (
      <span className="blame__failed">
        Could not load {rangeText}: {errorText(status.error)}{' '}
        <button type="button" className="blame__retry" onClick={onRetry} aria-label={`Retry ${rangeText}`}>
          Retry
        </button>
      </span>
    );
  }
  if (status.state === 'past-end') return null;
  return <span className="blame__pending">Loading {rangeText}…</span>;
}

function CommitSummary({ commit, projectId }: { commit: BlameCommit; projectId: number }) {
  const title = commitTitle(commit.message) || commit.id.slice(0, 8);
  return (
    <>
      <span className="blame__date"><Time value={commit.authored_date} dateOnly /></span>
      <span className="blame__author">{commit.author_name}</span>
      <Link className="blame__title" to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: commit.id }} title={title}>
        {title}
      </Link>
    </>
  );
}

/** A line (`40000`) or a range (`120-140`): the keyboard's way to what a click and a shift-click pick. */
function GoToLine({ onGo }: { onGo: (selection: LineSelection) => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  return (
    <form
      className="blame__goto"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const selection = parseLineHash(`L${value.trim().replace(/\s*[-–]\s*/, '-')}`);
        setInvalid(selection === null);
        if (selection) onGo(selection);
      }}
    >
      <label>
        Go to line{' '}
        <input
          className="input input--narrow"
          inputMode="numeric"
          placeholder="120 or 120-140"
          required
          aria-invalid={invalid}
          aria-describedby={invalid ? 'blame-goto-error' : undefined}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      {invalid ? (
        <span id="blame-goto-error" className="field__error" role="alert">
          A line number, or two joined by a dash
        </span>
      ) : null}
      <button type="submit" className="button">
        Go
      </button>
    </form>
  );
}
