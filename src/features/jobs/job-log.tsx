import { memo, useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { lineFromHash, useLocationHash } from '../../components/use-location-hash.ts';
import { LogStyler, parseLog, sectionsAround, visibleLines, type LogModel, type LogSpan } from './log-model.ts';
import { formatCountOf } from '../../lib/numbers.ts';
import { formatDuration } from '../../lib/duration.ts';

const LINE_HEIGHT = 20;
/** How close to the end counts as "at the end": the log follows new lines from there. */
const END_SLACK_PX = 2 * LINE_HEIGHT;

/** Sections folded: those marked `collapsed=true`, unless the reader opened them, and those the reader closed. */
function useFolding(model: LogModel) {
  const [toggled, setToggled] = useState<ReadonlySet<number>>(() => new Set());
  const collapsed = useMemo(() => {
    const folded = new Set<number>();
    model.sections.forEach((section, index) => {
      if (section.collapsedByDefault !== toggled.has(index)) folded.add(index);
    });
    return folded;
  }, [model, toggled]);
  const toggle = useCallback((section: number) => {
    setToggled((previous) => {
      const next = new Set(previous);
      if (!next.delete(section)) next.add(section);
      return next;
    });
  }, []);
  /** Opens every section around a line (to show a linked line). */
  const open = useCallback(
    (sections: readonly number[]) => {
      setToggled((previous) => {
        const next = new Set(previous);
        for (const section of sections)
          if (model.sections[section].collapsedByDefault) next.add(section);
          else next.delete(section);
        return next;
      });
    },
    [model],
  );
  const setAll = useCallback((fold: boolean) => setToggled(new Set(model.sections.flatMap((section, index) => (section.collapsedByDefault === fold ? [] : [index])))), [model]);
  return { collapsed, toggle, open, setAll };
}

/**
 * A job's log: ANSI colours as spans of text (never HTML), runner sections folding with their
 * duration, line numbers linking to `#L123`. Virtualized: a 100,000-line log has only the rows in
 * view in the page. While the job runs it follows the end, until the reader scrolls up.
 */
export function JobLog({ text, jobName, live }: { text: string; jobName: string; live: boolean }) {
  const model = useMemo(() => parseLog(text), [text]);
  const styler = useMemo(() => new LogStyler(model.lines), [model]);
  const { collapsed, toggle, open, setAll } = useFolding(model);
  const visible = useMemo(() => visibleLines(model, collapsed), [model, collapsed]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: visible.length, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_HEIGHT, overscan: 30 });
  const selected = lineFromHash(useLocationHash());
  const [following, setFollowing] = useState(live);
  const atEndRef = useRef(true);

  // a linked line: open its sections, then bring it into view
  useEffect(() => {
    if (selected === null || selected < 1 || selected > model.lines.length) return;
    open(sectionsAround(model, selected - 1));
    setFollowing(false);
  }, [selected, model, open]);
  useEffect(() => {
    if (selected === null) return;
    const at = visible.indexOf(selected - 1);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'center' });
  }, [selected, visible, virtualizer]);

  // following: new lines scroll into view
  useEffect(() => {
    if (following && visible.length) virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [following, visible.length, virtualizer]);
  useEffect(() => {
    if (!live) setFollowing(false);
  }, [live]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight <= END_SLACK_PX;
    // scrolling up stops following; coming back to the end of a live log starts again
    if (atEndRef.current !== atEnd) {
      atEndRef.current = atEnd;
      if (live) setFollowing(atEnd);
    }
  };

  const rows = virtualizer.getVirtualItems();
  const hasSections = model.sections.length > 0;
  return (
    <section className="job-log" aria-label={`Log of ${jobName}`}>
      <div className="job-log__toolbar" role="toolbar" aria-label="Log">
        <span className="muted">{formatCountOf(model.lines.length, 'line', 'lines')}</span>
        {hasSections ? (
          <>
            <button type="button" className="button" onClick={() => setAll(false)}>
              Expand all sections
            </button>
            <button type="button" className="button" onClick={() => setAll(true)}>
              Collapse all sections
            </button>
          </>
        ) : null}
        <button type="button" className="button" onClick={() => (setFollowing(false), virtualizer.scrollToIndex(0))}>
          Scroll to top
        </button>
        <button type="button" className="button" onClick={() => (live ? setFollowing(true) : virtualizer.scrollToIndex(visible.length - 1, { align: 'end' }))}>
          Scroll to end
        </button>
        {live ? (
          <span className="muted" aria-live="polite">
            {following ? 'Following the log as it grows' : 'Not following: scroll to the end to follow'}
          </span>
        ) : null}
      </div>
      {model.lines.length === 0 ? (
        <p className="muted">{live ? 'The log is empty so far: the job has not written anything yet.' : 'This job has no log.'}</p>
      ) : (
        <div ref={scrollRef} className="job-log__scroll" role="region" aria-label={`Log lines of ${jobName}`} tabIndex={0} onScroll={onScroll}>
          <div className="job-log__lines" style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const index = visible[row.index];
              return (
                <LogRow
                  key={index}
                  top={row.start}
                  number={index + 1}
                  spans={styler.spans(index)}
                  section={model.lines[index].header}
                  model={model}
                  folded={model.lines[index].header !== null && collapsed.has(model.lines[index].header!)}
                  selected={selected === index + 1}
                  onToggle={toggle}
                />
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

const LogRow = memo(function LogRow({
  top,
  number,
  spans,
  section,
  model,
  folded,
  selected,
  onToggle,
}: {
  top: number;
  number: number;
  spans: LogSpan[];
  section: number | null;
  model: LogModel;
  folded: boolean;
  selected: boolean;
  onToggle: (section: number) => void;
}) {
  const info = section !== null ? model.sections[section] : null;
  const depth = info ? info.depth : model.lines[number - 1].section !== null ? model.sections[model.lines[number - 1].section!].depth + 1 : 0;
  const text = <LogText spans={spans} />;
  return (
    <div className={selected ? 'log-line log-line--selected' : 'log-line'} style={{ transform: `translateY(${top}px)` }} id={`L${number}`}>
      <a className="log-line__number" href={`#L${number}`} aria-current={selected ? 'location' : undefined}>
        {number}
      </a>
      <span className="log-line__indent" style={{ width: depth * 12 }} />
      {info ? (
        <>
          <button type="button" className="log-line__toggle" aria-expanded={!folded} onClick={() => onToggle(section!)}>
            <span aria-hidden="true">{folded ? '▸' : '▾'}</span>
            <span className="sr-only">{folded ? 'Expand section' : 'Collapse section'} </span>
            {text}
          </button>
          {!info.hideDuration ? <span className="log-line__duration">{info.duration !== null ? formatDuration(info.duration) : 'running'}</span> : null}
        </>
      ) : (
        <span className="log-line__text">{text}</span>
      )}
    </div>
  );
});

/** Spans of text: React escapes every character, so markup in a log stays text. */
function LogText({ spans }: { spans: LogSpan[] }) {
  if (!spans.length) return <> </>;
  return (
    <>
      {spans.map((span, index) =>
        span.className || span.style ? (
          <span key={index} className={span.className || undefined} style={span.style}>
            {span.text}
          </span>
        ) : (
          span.text
        ),
      )}
    </>
  );
}
