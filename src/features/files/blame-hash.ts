import { formatCount } from '../../lib/numbers.ts';
/** Lines picked in the URL hash: `#L40` or `#L10-20` (GitHub's `#L10-L20` too). */
export interface LineSelection {
  first: number;
  last: number;
}

export function parseLineHash(hash: string): LineSelection | null {
  const match = /^#?L(\d{1,9})(?:-L?(\d{1,9}))?$/.exec(hash.trim());
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if (from < 1 || to < 1) return null;
  return { first: Math.min(from, to), last: Math.max(from, to) };
}

/** The hash without `#`, as the router takes it. */
export function lineHash(selection: LineSelection): string {
  return selection.first === selection.last ? `L${selection.first}` : `L${selection.first}-${selection.last}`;
}

/** A click on a line number: a plain click picks the line, a shift-click extends from the current pick. */
export function selectionAfterClick(current: LineSelection | null, line: number, extend: boolean): LineSelection {
  if (!extend || !current) return { first: line, last: line };
  // extending keeps the end that was picked first, as a text selection would
  const anchor = line >= current.first ? current.first : current.last;
  return { first: Math.min(anchor, line), last: Math.max(anchor, line) };
}

export function describeSelection(selection: LineSelection): string {
  return selection.first === selection.last ? `line ${formatCount(selection.first)}` : `lines ${formatCount(selection.first)}–${formatCount(selection.last)}`;
}
