import { useEffect, useMemo, useRef, useState } from 'react';
import type { HLJSApi } from 'highlight.js';
import { useVirtualizer } from '@tanstack/react-virtual';
import { highlightedLineNodes, highlightLines, languageFor, loadHighlighter, type HighlightNode } from '../../lib/highlight.ts';
import { Highlighted } from '../../components/highlighted.tsx';
import { lineFromHash, useLocationHash } from '../../components/use-location-hash.ts';
export { lineFromHash };
import '../../components/highlight.css';

const LINE_HEIGHT = 20;
// highlighted together: strings and comments spanning lines stay right within a chunk
const CHUNK_LINES = 500;

/** A file's lines as git counts them: a final newline ends the last line, it does not start another. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Highlights only the chunks of lines that are on screen, once each, after the grammar has loaded. */
function useHighlightedChunks(lines: readonly string[], language: string | null, firstLine: number, lastLine: number) {
  const [hljs, setHljs] = useState<HLJSApi | null>(null);
  const [chunks, setChunks] = useState<ReadonlyMap<number, HighlightNode[][]>>(new Map());
  useEffect(() => {
    setChunks(new Map());
    if (!language) return;
    let current = true;
    loadHighlighter(language).then(
      (loaded) => current && setHljs(() => loaded),
      // without the grammar the text shows plain, which is still the file
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [lines, language]);
  useEffect(() => {
    // the grammar of a newly opened file may still be loading into the shared core
    if (!hljs || !language || lines.length === 0 || !hljs.getLanguage(language)) return;
    const wanted: number[] = [];
    for (let chunk = Math.floor(firstLine / CHUNK_LINES); chunk <= Math.floor(lastLine / CHUNK_LINES); chunk++) if (!chunks.has(chunk)) wanted.push(chunk);
    if (!wanted.length) return;
    const next = new Map(chunks);
    for (const chunk of wanted) next.set(chunk, highlightLines(hljs, language, lines.slice(chunk * CHUNK_LINES, (chunk + 1) * CHUNK_LINES)).map(highlightedLineNodes));
    setChunks(next);
  }, [hljs, language, lines, firstLine, lastLine, chunks]);
  return (line: number): HighlightNode[] | undefined => chunks.get(Math.floor(line / CHUNK_LINES))?.[line % CHUNK_LINES];
}

/**
 * A text file with line numbers, highlighted lazily and virtualized: only the rows on screen
 * exist, so a 50,000-line file opens as fast as a short one. `#L12` selects and scrolls to a line.
 */
export function CodeView({ text, fileName }: { text: string; fileName: string }) {
  const lines = useMemo(() => splitLines(text), [text]);
  const language = languageFor(fileName);
  const selected = lineFromHash(useLocationHash());
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_HEIGHT, overscan: 40 });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? 0;
  const highlighted = useHighlightedChunks(lines, language, first, last);

  useEffect(() => {
    if (selected === null || selected < 1 || selected > lines.length) return;
    virtualizer.scrollToIndex(selected - 1, { align: 'center' });
    scrollRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected, lines.length, virtualizer]);

  if (lines.length === 0) return <p className="muted">This file is empty.</p>;
  const before = rows[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (rows[rows.length - 1]?.end ?? 0);
  return (
    <div ref={scrollRef} className="code-view" role="region" aria-label={`Contents of ${fileName}`} tabIndex={0}>
      <table>
        <tbody>
          {before > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={2} style={{ height: before }} />
            </tr>
          ) : null}
          {rows.map((row) => {
            const number = row.index + 1;
            const nodes = highlighted(row.index);
            return (
              <tr key={row.index} id={`L${number}`} className={number === selected ? 'code-view__selected' : undefined}>
                <td className="code-view__number">
                  <a href={`#L${number}`} aria-current={number === selected ? 'location' : undefined}>
                    {number}
                  </a>
                </td>
                <td>{nodes?.length ? <Highlighted nodes={nodes} /> : lines[row.index] || ' '}</td>
              </tr>
            );
          })}
          {after > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={2} style={{ height: after }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
