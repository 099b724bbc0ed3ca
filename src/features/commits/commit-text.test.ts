import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { commitSchema, type Commit } from '../../api/commits.ts';
import { checkText, diffCounts, groupByDay, messageBody } from './commit-text.ts';
import { historyListParams } from './route-options.ts';
import { HISTORY_SEARCH_DEFAULTS, historySearchSchema } from './search.ts';

const commit = (id: string, committedDate: string, message = 'Title'): Commit =>
  z.parse(commitSchema, { id, short_id: id.slice(0, 11), title: message.split('\n')[0], message, committed_date: committedDate, parent_ids: [], web_url: null });

describe('the history in the URL', () => {
  it('falls back to the defaults for anything off, and keeps good values', () => {
    expect(z.parse(historySearchSchema.schema(), {})).toEqual(HISTORY_SEARCH_DEFAULTS);
    expect(z.parse(historySearchSchema.schema(), { since: 'yesterday', per_page: 7, order: 'sideways', page: 0 })).toEqual(HISTORY_SEARCH_DEFAULTS);
    expect(z.parse(historySearchSchema.schema(), { ref_name: 'v1.0.0..main', since: '2026-01-01', first_parent: true, page: 3 })).toMatchObject({ ref_name: 'v1.0.0..main', since: '2026-01-01', first_parent: true, page: 3 });
  });

  it('asks for whole days, inclusive, and drops the ref when every branch is wanted', () => {
    const search = z.parse(historySearchSchema.schema(), { ref_name: 'main', path: 'src/a b.ts', since: '2026-01-01', until: '2026-01-31', all: true });
    expect(historyListParams(search)).toMatchObject({ ref_name: undefined, all: true, path: 'src/a b.ts', since: '2026-01-01T00:00:00Z', until: '2026-01-31T23:59:59Z' });
    expect(historyListParams(HISTORY_SEARCH_DEFAULTS)).toMatchObject({ ref_name: undefined, since: undefined, until: undefined, path: undefined, author: undefined });
  });
});

describe('commit text', () => {
  it('groups consecutive commits of a day, in list order', () => {
    const groups = groupByDay([commit('a', '2026-03-02T10:00:00Z'), commit('b', '2026-03-02T09:00:00Z'), commit('c', '2026-03-01T12:00:00Z')]);
    expect(groups.map((group) => group.commits.map((item) => item.id))).toEqual([['a', 'b'], ['c']]);
  });

  it('counts added and removed lines, a removed "-- comment" included', () => {
    expect(diffCounts('@@ -1,3 +1,3 @@\n keep\n--- an SQL comment\n+new\n+++ added\n\\ No newline at end of file\n')).toEqual({ additions: 2, deletions: 1, lines: 6 });
    expect(diffCounts('')).toEqual({ additions: 0, deletions: 0, lines: 0 });
  });

  it('shows the message past its title, or all of it when the platform cut the title', () => {
    expect(messageBody({ title: 'Fix', message: 'Fix\n\nBecause.\n\nSigned-off-by: A <a@x>\n' })).toBe('Because.\n\nSigned-off-by: A <a@x>');
    expect(messageBody({ title: 'Fix', message: 'Fix\n' })).toBeNull();
    expect(messageBody({ title: 'Long…', message: 'Long title indeed\nmore' })).toBe('Long title indeed\nmore');
  });

  it('says what the dry run found', () => {
    expect(checkText({ applies: true }, 'main', 'cherry_pick')).toBe('Applies cleanly to main. Nothing has been written yet.');
    expect(checkText({ applies: false, code: 'conflict', message: 'Sorry.' }, 'dev', 'revert')).toBe('Conflict on dev: Sorry.');
    expect(checkText({ applies: false, code: 'empty', message: 'Sorry.' }, 'dev', 'revert')).toBe('Nothing to revert on dev: Sorry.');
  });
});
