import type { StorageMove } from '../../api/storage-moves.ts';

/** What a move carries: the project's full path, or the group's wiki. */
export function moveSubject(move: StorageMove): string {
  if (move.project) return move.project.path_with_namespace;
  if (move.group) return `${move.group.name} (group wiki)`;
  return `Move ${move.id}`;
}
