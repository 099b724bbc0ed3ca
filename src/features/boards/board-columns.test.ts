import { beforeAll, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createBoard, createBoardList } from '../../api/boards.ts';
import type { Connection } from '../../api/http.ts';
import { createIssue, issuesQueries, reorderIssue, type Issue } from '../../api/issues.ts';
import { createLabel } from '../../api/labels.ts';
import type { Page } from '../../api/pagination.ts';
import { clientTestSandbox } from '../../api/test-sandbox.ts';
import { boardColumns, COLUMN_PAGE_SIZE, reorderNeighbours } from './columns.ts';
import { columnCards } from './use-card-move.ts';

/** The board's columns against the sandbox: each column's filter pages through exactly its issues. */
describe('a board’s columns against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let connection: Connection;
  let projectId: number;

  beforeAll(async () => {
    connection = sandbox.connection();
    projectId = (await sandbox.post('/projects', { name: 'board-columns' })).id;
  });

  it('pages a column of 25 through its infinite query, and leaves the lists’ issues out of Open', async () => {
    const scope = { project: projectId };
    const doing = await createLabel(connection, { scope, values: { name: 'Doing', color: '#e9be74' } });
    for (let index = 0; index < 25; index++) await createIssue(connection, { projectId, values: { title: `Doing ${index}`, labels: ['Doing'] } });
    await createIssue(connection, { projectId, values: { title: 'Loose', labels: ['bug'] } });
    const board = await createBoard(connection, { scope, name: 'Columns' });
    const list = await createBoardList(connection, { scope, boardId: board.id, subject: { label_id: doing.id } });
    const columns = boardColumns({ ...board, lists: [list] });
    expect(columns.map((column) => column.title)).toEqual(['Open', 'Doing', 'Closed']);

    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const doingColumn = issuesQueries.pages(connection, scope, columns[1].filter);
    await queryClient.fetchInfiniteQuery(doingColumn);
    const first = queryClient.getQueryData<{ pages: Page<Issue>[]; pageParams: number[] }>(doingColumn.queryKey)!;
    expect(first.pages[0].items).toHaveLength(COLUMN_PAGE_SIZE);
    expect(first.pages[0].total).toBe(25);
    expect(doingColumn.getNextPageParam(first.pages[0], first.pages, 1, first.pageParams)).toBe(2);
    await queryClient.fetchInfiniteQuery({ ...doingColumn, pages: 2 });
    const both = queryClient.getQueryData<{ pages: Page<Issue>[]; pageParams: number[] }>(doingColumn.queryKey)!;
    const cards = columnCards(both);
    expect(cards.map((issue) => issue.title)).toEqual(Array.from({ length: 25 }, (_, index) => `Doing ${index}`));
    expect(doingColumn.getNextPageParam(both.pages[1], both.pages, 2, both.pageParams)).toBeUndefined();

    const open = await queryClient.fetchInfiniteQuery(issuesQueries.pages(connection, scope, columns[0].filter));
    expect(columnCards(open).map((issue) => issue.title)).toEqual(['Loose']);

    // the last card put first: its neighbour is the old first card, and the column reads so
    const last = cards[24];
    const rest = cards.filter((card) => card.id !== last.id);
    await reorderIssue(connection, { projectId, iid: last.iid, ...reorderNeighbours(rest, 0, projectId)! });
    const reordered = await queryClient.fetchInfiniteQuery({ ...doingColumn, staleTime: 0 });
    expect(columnCards(reordered)[0].title).toBe('Doing 24');
  });
});
