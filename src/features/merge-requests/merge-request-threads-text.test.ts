import { describe, expect, it } from 'vitest';
import type { DiffPosition, Discussion, DiscussionNote } from '../../api/merge-requests.ts';
import { isUnresolved, positionText, unresolvedText } from './merge-request-threads-text.ts';

const note = (values: Partial<DiscussionNote>): DiscussionNote =>
  ({ id: 1, body: 'x', created_at: '2024-01-01T00:00:00Z', system: false, internal: false, resolvable: false, resolved: false, ...values }) as DiscussionNote;
const thread = (...notes: DiscussionNote[]): Discussion => ({ id: 'a', individual_note: notes.length === 1 && !notes[0]!.resolvable, notes });
const position = (values: Partial<DiffPosition>): DiffPosition => ({ position_type: 'text', base_sha: 'b', start_sha: 's', head_sha: 'h', ...values });

describe('merge request threads in words', () => {
  it('counts a thread unresolved while a resolvable note of it is open; comments never', () => {
    expect(isUnresolved(thread(note({ resolvable: true }), note({ resolvable: true, resolved: true })))).toBe(true);
    expect(isUnresolved(thread(note({ resolvable: true, resolved: true })))).toBe(false);
    expect(isUnresolved(thread(note({})))).toBe(false);
    expect([0, 1, 2].map(unresolvedText)).toEqual(['All threads resolved', '1 unresolved thread', '2 unresolved threads']);
  });

  it('says where a diff thread sits: the new line, or the old one of a removed line, and a rename', () => {
    expect(positionText(position({ old_path: 'a.ts', new_path: 'a.ts', old_line: null, new_line: 12 }))).toBe('a.ts, line 12');
    expect(positionText(position({ old_path: 'a.ts', new_path: 'a.ts', old_line: 7, new_line: null }))).toBe('a.ts, line 7 of the old version');
    expect(positionText(position({ old_path: 'old.ts', new_path: 'new.ts', new_line: 3 }))).toBe('new.ts (was old.ts), line 3');
  });
});
