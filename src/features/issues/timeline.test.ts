import { describe, expect, it } from 'vitest';
import type { IssueEvents, LabelEvent } from '../../api/issues.ts';
import type { Note } from '../../api/notes.ts';
import { mergeTimeline } from './timeline.ts';

const alice = { id: 1, username: 'alice', name: 'Alice', avatar_url: null, web_url: '', state: 'active', locked: false };
const bob = { ...alice, id: 2, username: 'bob', name: 'Bob' };

const note = (id: number, at: string, system = false): Note => ({ id, body: `note ${id}`, author: alice, created_at: at, updated_at: at, system, internal: false });
const label = (id: number, at: string, action: 'add' | 'remove', name: string, user = alice): LabelEvent => ({
  id, user, created_at: at, action, label: { id: id * 10, name, color: '#fff' },
});
const none: IssueEvents = { label: [], state: [], milestone: [] };

describe('mergeTimeline', () => {
  it('puts notes and events of every kind in time order', () => {
    const items = mergeTimeline([note(1, '2024-01-01T10:00:00Z'), note(2, '2024-01-03T10:00:00Z', true)], {
      label: [label(5, '2024-01-02T10:00:00Z', 'add', 'bug')],
      state: [{ id: 7, user: bob, created_at: '2024-01-04T10:00:00Z', state: 'closed' }],
      milestone: [{ id: 9, user: bob, created_at: '2024-01-01T09:00:00Z', action: 'add', milestone: null }],
    });
    expect(items.map((item) => item.key)).toEqual(['milestone-9', 'note-1', 'labels-5', 'note-2', 'state-7']);
  });

  it('groups the label events of one edit (same person, same moment), apart from another person’s', () => {
    const at = '2024-02-01T08:00:00Z';
    const items = mergeTimeline([], { ...none, label: [label(1, at, 'add', 'bug'), label(2, at, 'remove', 'wontfix'), label(3, at, 'add', 'ui'), label(4, at, 'add', 'p1', bob)] });
    expect(items).toHaveLength(2);
    const [first, second] = items;
    expect(first).toMatchObject({ kind: 'labels', user: { id: 1 } });
    if (first?.kind !== 'labels' || second?.kind !== 'labels') throw new Error('expected label groups');
    expect(first.added.map((event) => event.label?.name)).toEqual(['bug', 'ui']);
    expect(first.removed.map((event) => event.label?.name)).toEqual(['wontfix']);
    expect(second.added.map((event) => event.label?.name)).toEqual(['p1']);
  });

  it('at one instant, the edit’s events come before the comment, and equal times keep the order they came in', () => {
    const at = '2024-03-01T08:00:00Z';
    const items = mergeTimeline([note(3, at), note(4, at)], { ...none, state: [{ id: 1, user: alice, created_at: at, state: 'reopened' }] });
    expect(items.map((item) => item.key)).toEqual(['state-1', 'note-3', 'note-4']);
  });

  it('with `until` (more notes still loading), leaves out events after the last loaded note', () => {
    const items = mergeTimeline([note(1, '2024-01-01T00:00:00Z')], { ...none, state: [{ id: 2, user: alice, created_at: '2024-06-01T00:00:00Z', state: 'closed' }] }, '2024-01-01T00:00:00Z');
    expect(items.map((item) => item.key)).toEqual(['note-1']);
  });

  it('merges 500 notes and 300 events in order', () => {
    const start = Date.parse('2024-01-01T00:00:00Z');
    const notes = Array.from({ length: 500 }, (_, index) => note(index + 1, new Date(start + index * 120_000).toISOString()));
    const state = Array.from({ length: 300 }, (_, index) => ({ id: index + 1, user: alice, created_at: new Date(start + index * 200_000 + 60_000).toISOString(), state: index % 2 ? 'reopened' : 'closed' }));
    const items = mergeTimeline(notes, { ...none, state });
    expect(items).toHaveLength(800);
    const times = items.map((item) => Date.parse(item.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
