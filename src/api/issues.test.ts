import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { request, type Connection } from './http.ts';
import { loose } from './schema.ts';
import {
  cloneIssue, createIssue, deleteIssue, issueListQuery, issuesQueries, labelNames, moveIssue, reorderIssue, setIssueSubscription, trackTime, updateIssue,
} from './issues.ts';
import { createLabel, labelScope, labelsQueries, setLabelSubscription } from './labels.ts';
import { createMilestone, milestonesQueries } from './milestones.ts';
import { awardEmoji, createNote, deleteNote, notesQueries, updateNote } from './notes.ts';
import { boardsQueries, createBoard, createBoardList, deleteBoardList, moveBoardList } from './boards.ts';
import { encodeQuery } from './params.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';

const run = <T>(options: { queryFn?: unknown }) => (options.queryFn as (context: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

describe('the issue list query', () => {
  it('sends labels as one comma-separated value, negations under not[], and leaves empty filters out', () => {
    const query = issueListQuery({ state: 'opened', labels: ['bug', 'priority::high'], not: { labels: ['wontfix'], assignee_id: 'None' }, search: '', iids: [3, 4], page: 1, per_page: 20 });
    expect(encodeQuery(query)).toBe('state=opened&page=1&per_page=20&labels=bug%2Cpriority%3A%3Ahigh&iids[]=3&iids[]=4&not[labels]=wontfix&not[assignee_id]=None');
  });

  it('keeps confidential=false, which filters', () => {
    expect(encodeQuery(issueListQuery({ confidential: false, page: 1, per_page: 20 }))).toContain('confidential=false');
  });

  it('reads scoped label names', () => {
    expect(labelScope('workflow::in review')).toEqual({ scope: 'workflow', value: 'in review' });
    expect(labelScope('bug')).toBeUndefined();
  });
});

describe('issues, notes, labels, milestones and boards against the sandbox', () => {
  let sandbox: RunningSandbox;
  let connection: Connection;
  let projectId: number;
  let otherProjectId: number;
  let adminId: number;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'empty' });
    connection = { instanceUrl: sandbox.url, token: sandbox.adminToken };
    const create = (name: string) => request(connection, '/projects', loose({ id: z.number() }), { method: 'POST', body: { name } });
    projectId = (await create('tracker')).id;
    otherProjectId = (await create('tracker-next')).id;
    adminId = (await request(connection, '/user', loose({ id: z.number() }))).id;
  }, 60_000);
  afterAll(() => sandbox.close());

  it('creates issues with new labels, filters them (negated too) and counts each state', async () => {
    const milestone = await createMilestone(connection, { scope: { project: projectId }, values: { title: 'v1.0', due_date: '2030-01-01' } });
    const bug = await createIssue(connection, { projectId, values: { title: 'Crash on save', labels: ['bug', 'priority::high'], assignee_ids: [adminId], milestone_id: milestone.id } });
    await createIssue(connection, { projectId, values: { title: 'Wish: dark mode', labels: ['feature'] } });
    const wontfix = await createIssue(connection, { projectId, values: { title: 'Odd font', labels: ['bug', 'wontfix'] } });
    await updateIssue(connection, { projectId, iid: wontfix.iid, changes: { state_event: 'close' } });
    expect(labelNames(bug).sort()).toEqual(['bug', 'priority::high']);
    expect(bug.milestone?.title).toBe('v1.0');

    const bugs = await run<{ items: Array<{ title: string; labels: unknown[] }> }>(issuesQueries.list(connection, { project: projectId }, { state: 'all', labels: ['bug'], not: { labels: ['wontfix'] }, page: 1, per_page: 20 }));
    expect(bugs.items.map((issue) => issue.title)).toEqual(['Crash on save']);
    // with_labels_details: label objects with their colours
    expect(bugs.items[0].labels[0]).toMatchObject({ name: expect.any(String), color: expect.any(String) });
    const unassigned = await run<{ items: Array<{ title: string }> }>(issuesQueries.list(connection, { project: projectId }, { state: 'opened', assignee_id: 'None', page: 1, per_page: 20 }));
    expect(unassigned.items.map((issue) => issue.title)).toEqual(['Wish: dark mode']);
    const counts = await run<{ statistics: { counts: { all: number; opened: number; closed: number } } }>(issuesQueries.statistics(connection, { project: projectId }, { state: 'opened' }));
    expect(counts.statistics.counts).toMatchObject({ all: 3, opened: 2, closed: 1 });

    const labels = await run<{ items: Array<{ name: string; open_issues_count?: number | null }> }>(labelsQueries.list(connection, { project: projectId }, { with_counts: true, page: 1, per_page: 20 }));
    expect(labels.items.find((label) => label.name === 'bug')?.open_issues_count).toBe(1);
    const milestones = await run<{ items: Array<{ title: string }> }>(milestonesQueries.list(connection, { project: projectId }, { state: 'active', page: 1, per_page: 20 }));
    expect(milestones.items.map((item) => item.title)).toEqual(['v1.0']);
  });

  it('edits labels by adding and removing, reorders, tracks time, and subscribes once', async () => {
    const first = await createIssue(connection, { projectId, values: { title: 'First' } });
    const second = await createIssue(connection, { projectId, values: { title: 'Second' } });
    const edited = await updateIssue(connection, { projectId, iid: first.iid, changes: { add_labels: ['workflow::doing'], remove_labels: [] } });
    expect(labelNames(edited)).toContain('workflow::doing');
    const moved = await updateIssue(connection, { projectId, iid: first.iid, changes: { add_labels: ['workflow::review'], remove_labels: ['workflow::doing'] } });
    expect(labelNames(moved)).toEqual(['workflow::review']);

    await reorderIssue(connection, { projectId, iid: second.iid, before: first.id });
    const ordered = await run<{ items: Array<{ iid: number }> }>(issuesQueries.list(connection, { project: projectId }, { iids: [first.iid, second.iid], order_by: 'relative_position', sort: 'asc', page: 1, per_page: 20 }));
    expect(ordered.items.map((issue) => issue.iid)).toEqual([second.iid, first.iid]);

    expect(await trackTime(connection, { projectId, iid: first.iid, change: { estimate: '3h' } })).toMatchObject({ time_estimate: 10_800 });
    expect(await trackTime(connection, { projectId, iid: first.iid, change: { spend: '1h 30m' } })).toMatchObject({ total_time_spent: 5_400 });
    expect(await trackTime(connection, { projectId, iid: first.iid, change: { resetSpent: true } })).toMatchObject({ total_time_spent: 0 });

    // the author is subscribed already: subscribing again changes nothing, unsubscribing does
    expect(await setIssueSubscription(connection, { projectId, iid: first.iid, subscribed: true })).toBe(false);
    expect(await setIssueSubscription(connection, { projectId, iid: first.iid, subscribed: false })).toBe(true);
    const detail = await run<{ subscribed?: boolean }>(issuesQueries.detail(connection, projectId, first.iid));
    expect(detail.subscribed).toBe(false);
  });

  it('moves an issue (the original closes and points to it), clones one with its notes, and deletes', async () => {
    const issue = await createIssue(connection, { projectId, values: { title: 'Belongs elsewhere', labels: ['bug'] } });
    await createNote(connection, { noteable: { projectId, issueIid: issue.iid }, body: 'Context for the clone' });
    const clone = await cloneIssue(connection, { projectId, iid: issue.iid, toProjectId: otherProjectId, withNotes: true });
    expect(clone.project_id).toBe(otherProjectId);
    const cloneNotes = await run<{ items: Array<{ body: string }> }>(notesQueries.list(connection, { projectId: otherProjectId, issueIid: clone.iid }, { page: 1, per_page: 100 }));
    expect(cloneNotes.items.map((note) => note.body)).toContain('Context for the clone');

    const moved = await moveIssue(connection, { projectId, iid: issue.iid, toProjectId: otherProjectId });
    const original = await run<{ state: string; moved_to_id?: number | null }>(issuesQueries.detail(connection, projectId, issue.iid));
    expect(original).toMatchObject({ state: 'closed', moved_to_id: moved.id });

    await deleteIssue(connection, { projectId: otherProjectId, iid: moved.iid });
    await expect(run(issuesQueries.detail(connection, otherProjectId, moved.iid))).rejects.toMatchObject({ status: 404 });
  });

  it('adds, edits and deletes notes, awards emoji, and lists the system notes of changes', async () => {
    const issue = await createIssue(connection, { projectId, values: { title: 'Discussed' } });
    const noteable = { projectId, issueIid: issue.iid };
    const note = await createNote(connection, { noteable, body: 'First **thought**' });
    expect((await updateNote(connection, { noteable, noteId: note.id, body: 'Second thought' })).body).toBe('Second thought');
    const award = await awardEmoji(connection, { noteable, noteId: note.id, name: 'thumbsup' });
    expect(award.name).toBe('thumbsup');
    const awards = await run<{ items: Array<{ name: string }> }>(notesQueries.awards(connection, noteable, note.id));
    expect(awards.items.map((item) => item.name)).toEqual(['thumbsup']);
    await updateIssue(connection, { projectId, iid: issue.iid, changes: { title: 'Discussed at length' } });
    const notes = await run<{ items: Array<{ body: string; system: boolean }> }>(notesQueries.list(connection, noteable, { sort: 'asc', order_by: 'created_at', page: 1, per_page: 100 }));
    expect(notes.items.some((item) => item.system && /changed title/.test(item.body))).toBe(true);
    await deleteNote(connection, { noteable, noteId: note.id });
    const after = await run<{ items: Array<{ id: number }> }>(notesQueries.list(connection, noteable, { page: 1, per_page: 100 }));
    expect(after.items.map((item) => item.id)).not.toContain(note.id);
  });

  it('subscribes to a label once, and builds a board of label lists', async () => {
    const label = await createLabel(connection, { scope: { project: projectId }, values: { name: 'board::todo', color: '#428BCA' } });
    const doing = await createLabel(connection, { scope: { project: projectId }, values: { name: 'board::doing', color: '#5CB85C' } });
    expect(await setLabelSubscription(connection, { scope: { project: projectId }, labelId: label.id, subscribed: true })).toBe(true);
    expect(await setLabelSubscription(connection, { scope: { project: projectId }, labelId: label.id, subscribed: true })).toBe(false);

    const scope = { project: projectId };
    const board = await createBoard(connection, { scope, name: 'Delivery' });
    const todo = await createBoardList(connection, { scope, boardId: board.id, subject: { label_id: label.id } });
    const doingList = await createBoardList(connection, { scope, boardId: board.id, subject: { label_id: doing.id } });
    await moveBoardList(connection, { scope, boardId: board.id, listId: doingList.id, position: 0 });
    const shown = await run<{ lists: Array<{ id: number; label?: { name: string } | null }> }>(boardsQueries.detail(connection, scope, board.id));
    expect(shown.lists.map((list) => list.label?.name)).toEqual(['board::doing', 'board::todo']);
    await deleteBoardList(connection, { scope, boardId: board.id, listId: todo.id });
    const boards = await run<{ items: Array<{ name?: string | null; lists: unknown[] }> }>(boardsQueries.list(connection, scope));
    expect(boards.items.find((item) => item.name === 'Delivery')?.lists).toHaveLength(1);
  });
});
