import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { issueListQuery } from '../../api/issues.ts';
import { encodeQuery } from '../../api/params.ts';
import { addToken, clearTokens, pagesByKeyset, issueFilters, issueListParams, issuesSearchSchema, removeToken, tokenProblem, tokensFromSearch, tokenText, type FilterToken } from './search.ts';

const parse = (input: Record<string, unknown>) => z.parse(issuesSearchSchema.schema(), input);

describe('issue list search params', () => {
  it('falls back to the defaults on a bad URL, field by field', () => {
    const search = parse({ state: 'sleeping', order_by: 'colour', sort: 'up', label: 'bug', iid: [0, 'x'], due: 'someday', confidential: 'maybe', page: -2, per_page: 7, milestone: '' });
    expect(search).toMatchObject({ state: 'opened', order_by: 'created_at', sort: 'desc', label: [], iid: [], page: 1, per_page: 20 });
    expect(search.due).toBeUndefined();
    expect(search.confidential).toBeUndefined();
    expect(search.milestone).toBeUndefined();
  });

  it('reads each filter of the URL as a token, negated ones as "is not", in the bar order', () => {
    const search = parse({ label: ['bug', 'priority::high'], not_label: ['wontfix'], milestone: 'Upcoming', assignee: ['None'], not_author: 'root', iid: [3], search: 'crash', confidential: false, due: 'overdue', type: 'incident' });
    expect(tokensFromSearch(search).map(tokenText)).toEqual([
      'label is bug',
      'label is priority::high',
      'label is not wontfix',
      'milestone is Upcoming',
      'assignee is None',
      'author is not root',
      'iid is 3',
      'search is crash',
      'confidential is no',
      'due date is Overdue',
      'type is incident',
    ]);
  });

  it('adds and removes tokens: lists grow, single fields replace, None/Any stand alone, page back to 1', () => {
    let search = parse({ page: 4 });
    const add = (token: FilterToken) => (search = addToken(search, token));
    add({ field: 'label', negated: false, value: 'bug' });
    add({ field: 'label', negated: false, value: ' bug ' });
    add({ field: 'label', negated: true, value: 'wontfix' });
    add({ field: 'milestone', negated: false, value: 'v1' });
    add({ field: 'milestone', negated: false, value: 'Upcoming' });
    add({ field: 'iid', negated: false, value: '12' });
    add({ field: 'confidential', negated: false, value: 'yes' });
    expect(search).toMatchObject({ label: ['bug'], not_label: ['wontfix'], milestone: 'Upcoming', iid: [12], confidential: true, page: 1 });
    add({ field: 'assignee', negated: false, value: 'maya' });
    add({ field: 'assignee', negated: false, value: 'None' });
    expect(search.assignee).toEqual(['None']);
    add({ field: 'assignee', negated: false, value: 'diego' });
    expect(search.assignee).toEqual(['diego']);
    // every token read back from the URL removes what it stands for
    const roundTrip = parse(JSON.parse(JSON.stringify(search)));
    expect(tokensFromSearch(roundTrip)).toEqual(tokensFromSearch(search));
    for (const token of tokensFromSearch(search)) expect(tokensFromSearch(removeToken(search, token))).not.toContainEqual(token);
    expect(tokensFromSearch(clearTokens(search))).toEqual([]);
  });

  it('says what is wrong with a token before it becomes a filter', () => {
    expect(tokenProblem({ field: 'label', negated: false, value: '  ' })).toBe('Enter a value.');
    expect(tokenProblem({ field: 'iid', negated: false, value: '1.5' })).toMatch(/whole number/);
    expect(tokenProblem({ field: 'search', negated: true, value: 'x' })).toMatch(/cannot be negated/);
    expect(tokenProblem({ field: 'type', negated: false, value: 'epic' })).toMatch(/type is one of/);
    expect(tokenProblem({ field: 'label', negated: true, value: 'wontfix' })).toBeUndefined();
  });

  it('turns the URL into the API query: labels joined, None/Any as assignee_id, negations under not[...]', () => {
    const search = parse({ label: ['bug', 'ui'], not_label: ['wontfix'], milestone: 'Upcoming', assignee: ['None'], not_assignee: ['maya'], author: 'root', not_iid: [4, 5], search: 'crash', in: 'title', confidential: true, due: 'week', order_by: 'label_priority', sort: 'asc', page: 3, per_page: 50 });
    expect(issueFilters(search, false)).toEqual({
      state: 'opened', labels: ['bug', 'ui'], milestone: 'Upcoming', assignee_id: 'None', author_username: 'root', search: 'crash', in: 'title', confidential: true, due_date: 'week',
      not: { labels: ['wontfix'], assignee_username: ['maya'], iids: [4, 5] },
    });
    const query = issueListQuery(issueListParams(search, false));
    expect(decodeURIComponent(encodeQuery(query))).toBe(
      'state=opened&search=crash&in=title&due_date=week&order_by=label_priority&sort=asc&page=3&per_page=50&labels=bug,ui&milestone=Upcoming&author_username=root&assignee_id=None&confidential=true&not[labels]=wontfix&not[assignee_username][]=maya&not[iids][]=4&not[iids][]=5',
    );
  });

  it('sends the scope only for the instance list', () => {
    const search = parse({ scope: 'all' });
    expect(issueFilters(search, true).scope).toBe('all');
    expect(issueFilters(search, false).scope).toBeUndefined();
  });

  it('pages a project in creation or update order by keyset, every other list by number; a new filter starts again at the first page', () => {
    expect(pagesByKeyset({ project: 4 }, parse({}))).toBe(true);
    expect(pagesByKeyset({ project: 4 }, parse({ order_by: 'updated_at' }))).toBe(true);
    expect(pagesByKeyset({ project: 4 }, parse({ order_by: 'title' }))).toBe(false);
    expect(pagesByKeyset({ group: 4 }, parse({}))).toBe(false);
    expect(pagesByKeyset('instance', parse({}))).toBe(false);
    const later = parse({ cursor: 'eyJ2YWx1ZSI6MX0', page: 3 });
    expect(addToken(later, { field: 'label', negated: false, value: 'bug' })).toMatchObject({ cursor: undefined, page: 1 });
    expect(removeToken(parse({ cursor: 'abc', label: ['bug'] }), { field: 'label', negated: false, value: 'bug' }).cursor).toBeUndefined();
  });
});
