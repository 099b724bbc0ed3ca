import { formatCount } from '../../lib/numbers.ts';
import type { LineSelection } from '../../lib/line-hash.ts';

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
