import { useEffect, useState } from 'react';
import type { HLJSApi } from 'highlight.js';
import type { DiffLine, ParsedDiff } from '../../lib/diff.ts';
import { highlightedLineNodes, highlightLines, languageFor, loadHighlighter, type HighlightNode } from '../../lib/highlight.ts';
import type { DiffEntry } from './diff-model.ts';

/** A file's highlighted lines by number, on each side. */
interface Sides {
  old: Map<number, HighlightNode[]>;
  new: Map<number, HighlightNode[]>;
}

/** Each side of a file highlighted as one text (its hunks in order), so a string or comment spanning lines stays right within a hunk. */
function highlightSides(hljs: HLJSApi, language: string, parsed: ParsedDiff): Sides {
  const side = (pick: (line: DiffLine) => number | null) => {
    const lines = parsed.hunks.flatMap((hunk) => hunk.lines.filter((line) => pick(line) !== null));
    const html = highlightLines(hljs, language, lines.map((line) => line.text));
    return new Map(lines.map((line, index) => [pick(line)!, highlightedLineNodes(html[index] ?? '')]));
  };
  return { old: side((line) => (line.kind === 'added' ? null : line.oldLine)), new: side((line) => (line.kind === 'removed' ? null : line.newLine)) };
}

export type HighlightedLine = (entry: DiffEntry, line: DiffLine) => HighlightNode[] | undefined;

/**
 * Highlights the files in view once their grammar has loaded, after they have painted as plain
 * text: the first file never waits for highlight.js. Kept per parse, so switching the view or the
 * whitespace setting highlights nothing again. A grammar that fails to load leaves the text plain.
 */
export function useDiffHighlight(entries: readonly DiffEntry[], visibleFiles: readonly number[]): HighlightedLine {
  const [cache] = useState(() => new WeakMap<ParsedDiff, Sides>());
  const [, setVersion] = useState(0);
  const visible = visibleFiles.join(',');
  useEffect(() => {
    let current = true;
    const wanted = visible
      .split(',')
      .filter(Boolean)
      .map((index) => entries[Number(index)])
      .filter((entry) => entry && entry.parsed.hunks.length > 0 && !cache.has(entry.parsed) && languageFor(entry.path) !== null);
    if (!wanted.length) return;
    void Promise.all(
      wanted.map(async (entry) => {
        const language = languageFor(entry.path)!;
        const hljs = await loadHighlighter(language);
        if (hljs && !cache.has(entry.parsed)) cache.set(entry.parsed, highlightSides(hljs, language, entry.parsed));
      }),
    ).then(
      () => current && setVersion((version) => version + 1),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [cache, entries, visible]);
  return (entry, line) => {
    const sides = cache.get(entry.parsed);
    if (!sides) return undefined;
    return line.kind === 'removed' ? sides.old.get(line.oldLine!) : sides.new.get(line.newLine!);
  };
}
