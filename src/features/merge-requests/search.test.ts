import { describe, expect, it } from 'vitest';
import { mergeRequestListQuery } from '../../api/merge-requests.ts';
import { encodeQuery } from '../../api/params.ts';
import {
  boardListParams, boardMergedParams, boardSearchOf, clearFilters, isFiltered, listSearchOf, mergeRequestBoardSearchSchema, mergeRequestListParams, mergeRequestTokens, mergeRequestsSearchSchema,
  type MergeRequestToken,
} from './search.ts';

const parse = (search: Record<string, unknown>) => mergeRequestsSearchSchema.schema().parse(search);

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
      source_branch: 'feature/x', approved_by: ['maya.chen', 'root'], reaction: 'thumbsup', not_reaction: 'eyes',
      order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
    });
    expect(isFiltered(search)).toBe(true);
    expect(mergeRequestListQuery(mergeRequestListParams(search, false, 'me'))).toEqual({
      state: 'merged', author_username: 'maya.chen', assignee_id: 'None', reviewer_id: 'Any', labels: 'frontend,feature', milestone: 'v1', my_reaction_emoji: 'thumbsup',
      approved_by_usernames: ['maya.chen', 'root'],
      wip: 'no', search: 'search field', source_branch: 'feature/x', target_branch: 'main', order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
      not: { author_username: 'grace.okafor', assignee_username: 'hiroshi.tanaka', reviewer_username: 'root', labels: 'wontfix', milestone: 'v2', my_reaction_emoji: 'eyes' },
    });
  });

  it('sends None and Any of "approved by" as approved_by_ids, names as approved_by_usernames[]', () => {
    const query = (approved_by: string[]) => decodeURIComponent(encodeQuery(mergeRequestListQuery(mergeRequestListParams(parse({ approved_by }), false, undefined))));
    expect(query(['None'])).toContain('approved_by_ids=None');
    expect(query(['Any'])).toContain('approved_by_ids=Any');
    expect(query(['maya.chen', 'root'])).toContain('approved_by_usernames[]=maya.chen&approved_by_usernames[]=root');
    expect(query([])).not.toContain('approved_by');
  });

  it('sends None and Any of "approver" as approver_ids, and keeps names for the lookup of their ids', () => {
    const params = (approver: string[]) => mergeRequestListParams(parse({ approver }), false, undefined);
    expect(params(['None'])).toMatchObject({ approver_ids: 'None' });
    expect(params(['Any', 'root'])).toMatchObject({ approver_ids: 'Any' });
    expect(params(['maya.chen', 'root'])).toMatchObject({ approver_usernames: ['maya.chen', 'root'] });
    expect(params([])).not.toHaveProperty('approver_ids');
    expect(params([])).not.toHaveProperty('approver_usernames');
  });

  it('lets a reviewer token of the "review requested" tab stand instead of the caller', () => {
    const params = (reviewer: string) => mergeRequestListQuery(mergeRequestListParams(parse({ reviewer }), true, 'diego.ramirez'));
    expect(params('None')).toMatchObject({ scope: 'all', reviewer_id: 'None' });
    expect(params('None')).not.toHaveProperty('reviewer_username');
    expect(params('maya.chen')).toMatchObject({ reviewer_username: 'maya.chen' });
  });

  it('turns tokens of the bar into the URL and the API query, and the URL back into the same tokens', () => {
    let search = parse({ page: 2 });
    const add = (token: MergeRequestToken) => {
      expect(mergeRequestTokens.tokenProblem(token, search)).toBeUndefined();
      search = mergeRequestTokens.addToken(search, token);
    };
    add({ field: 'label', negated: true, value: 'wontfix' });
    add({ field: 'reviewer', negated: false, value: 'None' });
    add({ field: 'approved_by', negated: false, value: 'maya.chen' });
    add({ field: 'draft', negated: false, value: 'yes' });
    add({ field: 'source_branch', negated: false, value: 'topic-1' });
    add({ field: 'reaction', negated: true, value: 'thumbsdown' });
    expect(search).toMatchObject({ not_label: ['wontfix'], reviewer: 'None', approved_by: ['maya.chen'], draft: 'yes', source_branch: 'topic-1', not_reaction: 'thumbsdown', page: 1 });
    expect(mergeRequestTokens.tokensFromSearch(search).map(mergeRequestTokens.tokenText)).toEqual([
      'reviewer is None', 'approved by is maya.chen', 'label is not wontfix', 'source branch is topic-1', 'draft is yes', 'my reaction is not thumbsdown',
    ]);
    // the URL as the router writes it and reads it back
    const reread = parse(JSON.parse(JSON.stringify(search)));
    expect(mergeRequestTokens.tokensFromSearch(reread)).toEqual(mergeRequestTokens.tokensFromSearch(search));
    expect(decodeURIComponent(encodeQuery(mergeRequestListQuery(mergeRequestListParams(reread, false, undefined))))).toBe(
      'reviewer_id=None&state=opened&approved_by_usernames[]=maya.chen&wip=yes&source_branch=topic-1&order_by=created_at&sort=desc&page=1&per_page=20&not[labels]=wontfix&not[my_reaction_emoji]=thumbsdown',
    );
  });

  it('refuses what the API would refuse: negating a field without not[...], a sixth approver, a draft that is neither yes nor no', () => {
    const five = parse({ approved_by: ['a', 'b', 'c', 'd', 'e'] });
    expect(mergeRequestTokens.tokenProblem({ field: 'approved_by', negated: false, value: 'f' }, five)).toBe('At most 5 values of approved by.');
    expect(mergeRequestTokens.tokenProblem({ field: 'approved_by', negated: false, value: 'Any' }, five)).toBeUndefined();
    expect(mergeRequestTokens.tokenProblem({ field: 'target_branch', negated: true, value: 'main' })).toBe('Target branch cannot be negated.');
    expect(mergeRequestTokens.tokenProblem({ field: 'draft', negated: false, value: 'maybe' })).toBe('Choose one of yes, no.');
    expect(mergeRequestTokens.addToken(five, { field: 'approved_by', negated: false, value: 'None' }).approved_by).toEqual(['None']);
  });

  it('clears the filters but keeps the tabs, the order and the page size', () => {
    const search = parse({ whose: 'created_by_me', state: 'all', draft: 'yes', not_label: ['x'], search: 'a', approved_by: ['Any'], not_reaction: 'eyes', source_branch: 'b', order_by: 'title', per_page: 100, page: 4 });
    const cleared = clearFilters(search);
    expect(isFiltered(cleared)).toBe(false);
    expect(cleared).toMatchObject({ whose: 'created_by_me', state: 'all', order_by: 'title', per_page: 100, page: 1 });
  });
});

describe('the merge request board’s URL', () => {
  it('keeps the list’s filters and nothing of its tabs, order and pages', () => {
    const list = parse({ whose: 'created_by_me', state: 'merged', author: 'maya.chen', not_label: ['wontfix'], draft: 'no', order_by: 'title', page: 3 });
    const board = boardSearchOf(list);
    expect(board).toMatchObject({ author: 'maya.chen', not_label: ['wontfix'], draft: 'no' });
    for (const key of ['whose', 'state', 'order_by', 'sort', 'page', 'per_page']) expect(board).not.toHaveProperty(key);
    // the same schema: a bad value falls back the same way, and the filters go back to a list unchanged
    expect(mergeRequestBoardSearchSchema.schema().parse({ draft: 'maybe', label: 'bug', state: 'merged' })).toEqual(mergeRequestBoardSearchSchema.schema().parse({}));
    expect(boardSearchOf(listSearchOf(board))).toEqual(board);
  });

  it('asks for every open request 100 a page, the instance for the caller’s review queue, and the merged ones since the window', () => {
    const search = mergeRequestBoardSearchSchema.schema().parse({ label: ['frontend'], not_author: 'root' });
    const project = mergeRequestListQuery({ ...boardListParams(search, false, 'diego.ramirez'), page: 1 });
    expect(project).toMatchObject({ state: 'opened', per_page: 100, labels: 'frontend', not: { author_username: 'root' } });
    expect(project).not.toHaveProperty('scope');
    expect(mergeRequestListQuery({ ...boardListParams(search, true, 'diego.ramirez'), page: 1 })).toMatchObject({ scope: 'all', reviewer_username: 'diego.ramirez', state: 'opened' });
    const since = new Date('2026-11-19T08:00:00Z');
    expect(boardMergedParams(search, false, 'diego.ramirez', since)).toMatchObject({ state: 'merged', updated_after: '2026-11-19T08:00:00.000Z', per_page: 100 });
  });
});
