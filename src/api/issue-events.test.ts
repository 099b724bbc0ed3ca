import { beforeAll, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Connection } from './http.ts';
import { createIssue, getIssue, issueEvents, updateIssue } from './issues.ts';
import { createMilestone } from './milestones.ts';
import { createNote, notesQueries } from './notes.ts';
import { clientTestSandbox } from './test-sandbox.ts';

describe('an issue’s resource events and its whole thread, against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let connection: Connection;
  let projectId: number;

  beforeAll(async () => {
    connection = sandbox.connection();
    projectId = (await sandbox.post('/projects', { name: 'events' })).id;
  });

  it('reads label, state and milestone events through their schemas', async () => {
    const milestone = await createMilestone(connection, { scope: { project: projectId }, values: { title: 'v2' } });
    const issue = await createIssue(connection, { projectId, values: { title: 'Events' } });
    await updateIssue(connection, { projectId, iid: issue.iid, changes: { add_labels: ['bug', 'ui'], milestone_id: milestone.id } });
    await updateIssue(connection, { projectId, iid: issue.iid, changes: { remove_labels: ['ui'], state_event: 'close' } });
    const events = await issueEvents(connection, projectId, issue.iid);
    expect(events.label.map((event) => `${event.action} ${event.label?.name}`)).toEqual(['add bug', 'add ui', 'remove ui']);
    expect(events.state.map((event) => event.state)).toEqual(['closed']);
    expect(events.milestone.map((event) => `${event.action} ${event.milestone?.title}`)).toEqual(['add v2']);
    expect((await getIssue(connection, projectId, issue.iid)).state).toBe('closed');
  });

  it('loads a thread of 230 notes page by page, oldest first', async () => {
    const issue = await createIssue(connection, { projectId, values: { title: 'Long thread' } });
    for (let index = 1; index <= 230; index++) await createNote(connection, { noteable: { projectId, issueIid: issue.iid }, body: `note ${index}` });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = notesQueries.thread(connection, { projectId, issueIid: issue.iid });
    await client.fetchInfiniteQuery(options);
    let data = client.getQueryData(options.queryKey);
    while (data && options.getNextPageParam(data.pages.at(-1)!, data.pages, data.pageParams.at(-1) as number, data.pageParams as number[]) !== undefined) {
      await client.fetchInfiniteQuery({ ...options, pages: data.pages.length + 1 });
      data = client.getQueryData(options.queryKey);
    }
    const bodies = data?.pages.flatMap((page) => page.items.map((note) => note.body)) ?? [];
    expect(data?.pages).toHaveLength(3);
    expect(bodies).toHaveLength(230);
    expect(bodies[0]).toBe('note 1');
    expect(bodies.at(-1)).toBe('note 230');
  }, 60_000);
});
