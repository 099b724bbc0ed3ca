import { describe, expect, it } from 'vitest';
import { mergeRequestListQuery } from '../../api/merge-requests.ts';
import { clearFilters, isFiltered, mergeRequestListParams, mergeRequestsSearchSchema } from './search.ts';

const parse = (search: Record<string, unknown>) => mergeRequestsSearchSchema.parse(search);

describe('the merge request list’s URL', () => {
  it('falls back to the defaults for a bad or missing value', () => {
    const search = parse({ whose: 'everyone', state: 'locked', draft: 'maybe', order_by: 'priority', page: -2, per_page: 7, label: 'bug' });
    expect(search).toMatchObject({ whose: 'review_requested', state: 'opened', draft: undefined, order_by: 'created_at', sort: 'desc', page: 1, per_page: 20, label: [] });
    expect(isFiltered(search)).toBe(false);
  });

  it('asks the instance for the caller’s reviews, assignments or own requests', () => {
    const query = (whose: string) => mergeRequestListQuery(mergeRequestListParams(parse({ whose }), true, 'diego.ramirez'));
    expect(query('review_requested')).toMatchObject({ scope: 'all', reviewer_username: 'diego.ramirez', state: 'opened' });
    expect(query('assigned_to_me')).toMatchObject({ scope: 'assigned_to_me' });
    expect(query('assigned_to_me')).not.toHaveProperty('reviewer_username');
    expect(query('created_by_me')).toMatchObject({ scope: 'created_by_me' });
    // groups and projects have no tabs
    expect(mergeRequestListQuery(mergeRequestListParams(parse({ whose: 'created_by_me' }), false, 'diego.ramirez'))).not.toHaveProperty('scope');
  });

  it('turns every filter into the platform’s parameters, negated ones under not[...]', () => {
    const search = parse({
      state: 'merged', author: 'maya.chen', not_author: 'grace.okafor', assignee: 'None', not_assignee: 'hiroshi.tanaka', reviewer: 'Any', not_reviewer: 'root',
      label: ['frontend', 'feature'], not_label: ['wontfix'], milestone: 'v1', not_milestone: 'v2', draft: 'no', search: 'search field', target_branch: 'main',
      order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
    });
    expect(isFiltered(search)).toBe(true);
    expect(mergeRequestListQuery(mergeRequestListParams(search, false, 'me'))).toEqual({
      state: 'merged', author_username: 'maya.chen', assignee_id: 'None', reviewer_id: 'Any', labels: 'frontend,feature', milestone: 'v1',
      wip: 'no', search: 'search field', target_branch: 'main', order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
      not: { author_username: 'grace.okafor', assignee_username: 'hiroshi.tanaka', reviewer_username: 'root', labels: 'wontfix', milestone: 'v2' },
    });
  });

  it('clears the filters but keeps the tabs, the order and the page size', () => {
    const search = parse({ whose: 'created_by_me', state: 'all', draft: 'yes', not_label: ['x'], search: 'a', order_by: 'title', per_page: 100, page: 4 });
    const cleared = clearFilters(search);
    expect(isFiltered(cleared)).toBe(false);
    expect(cleared).toMatchObject({ whose: 'created_by_me', state: 'all', order_by: 'title', per_page: 100, page: 1 });
  });
});
