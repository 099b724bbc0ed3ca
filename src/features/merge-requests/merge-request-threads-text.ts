import type { DiffPosition, Discussion } from '../../api/merge-requests.ts';
import { formatCountOf } from '../../lib/numbers.ts';

/** A thread that can be resolved and is not yet (the platform: resolvable notes, not all resolved). */
export function isUnresolved(discussion: Discussion): boolean {
  const resolvable = discussion.notes.filter((note) => note.resolvable);
  return resolvable.length > 0 && resolvable.some((note) => !note.resolved);
}

export function isResolvable(discussion: Discussion): boolean {
  return discussion.notes.some((note) => note.resolvable);
}

export function unresolvedText(count: number): string {
  return count === 0 ? 'All threads resolved' : formatCountOf(count, 'unresolved thread', 'unresolved threads');
}

/** Where a diff thread sits, in words: the Changes tab shows the line itself. */
export function positionText(position: DiffPosition): string {
  const path = position.new_path ?? position.old_path ?? 'a file';
  const moved = position.old_path && position.new_path && position.old_path !== position.new_path ? ` (was ${position.old_path})` : '';
  const line = position.new_line ?? position.old_line;
  const side = position.new_line === null || position.new_line === undefined ? ' of the old version' : '';
  return line ? `${path}${moved}, line ${line}${side}` : `${path}${moved}`;
}
