import type { IssueEvents, LabelEvent, MilestoneEvent, StateEvent } from '../../api/issues.ts';
import type { Note } from '../../api/notes.ts';

/** One entry of an issue's activity: a comment or system note, or what resource events recorded. */
export type TimelineItem =
  | { kind: 'note'; key: string; at: string; note: Note }
  /** Labels one person added and removed in one edit: the platform records one event per label. */
  | { kind: 'labels'; key: string; at: string; user: LabelEvent['user']; added: LabelEvent[]; removed: LabelEvent[] }
  | { kind: 'state'; key: string; at: string; event: StateEvent }
  | { kind: 'milestone'; key: string; at: string; event: MilestoneEvent };

function time(value: string): number {
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** Label events of one edit: the same person at the same moment, in the order they came. */
function groupLabelEvents(events: readonly LabelEvent[]): TimelineItem[] {
  const groups: Extract<TimelineItem, { kind: 'labels' }>[] = [];
  const sorted = [...events].sort((a, b) => time(a.created_at) - time(b.created_at) || a.id - b.id);
  for (const event of sorted) {
    const last = groups.at(-1);
    const same = last && last.at === event.created_at && (last.user?.id ?? null) === (event.user?.id ?? null);
    const group = same ? last : { kind: 'labels' as const, key: `labels-${event.id}`, at: event.created_at, user: event.user, added: [], removed: [] };
    (event.action === 'remove' ? group.removed : group.added).push(event);
    if (!same) groups.push(group);
  }
  return groups;
}

// at one instant an edit's events come before the comment written after it, as on the platform
const KIND_ORDER: Record<TimelineItem['kind'], number> = { state: 0, milestone: 1, labels: 2, note: 3 };

/**
 * Notes and resource events in time order (oldest first). With `until`, only what happened up
 * to that moment: while later pages of notes are still loading, events after the last loaded
 * note would otherwise show up before notes that precede them.
 */
export function mergeTimeline(notes: readonly Note[], events: IssueEvents, until?: string): TimelineItem[] {
  const items: TimelineItem[] = [
    ...notes.map((note): TimelineItem => ({ kind: 'note', key: `note-${note.id}`, at: note.created_at, note })),
    ...groupLabelEvents(events.label),
    ...events.state.map((event): TimelineItem => ({ kind: 'state', key: `state-${event.id}`, at: event.created_at, event })),
    ...events.milestone.map((event): TimelineItem => ({ kind: 'milestone', key: `milestone-${event.id}`, at: event.created_at, event })),
  ];
  const limit = until === undefined ? Infinity : time(until);
  return items
    .filter((item) => item.kind === 'note' || time(item.at) <= limit)
    .map((item, index) => ({ item, index }))
    .sort((a, b) => time(a.item.at) - time(b.item.at) || KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind] || a.index - b.index)
    .map(({ item }) => item);
}
