import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiGroup, apiProject } from './core-fixtures.ts';

const h = createHarness({ now: () => new Date('2026-03-11T09:00:00Z') });
const guest = h.user();
let groupId = 0;
let subgroupId = 0;
let projectId = 0;
const labels: Record<string, number> = {};

beforeAll(async () => {
  groupId = (await apiGroup(h, h.adminToken)).id;
  subgroupId = (await apiGroup(h, h.adminToken, { parent_id: groupId })).id;
  projectId = (await apiProject(h, h.adminToken, { namespace_id: subgroupId })).id;
  expect((await h.post(`/projects/${projectId}/members`, { user_id: guest.id, access_level: 10 })).status).toBe(201);
  for (const name of ['workflow::todo', 'workflow::doing', 'workflow::done']) {
    labels[name] = (await h.post(`/groups/${groupId}/labels`, { name, color: '#428bca' })).body.id;
  }
  labels.local = (await h.post(`/projects/${projectId}/labels`, { name: 'local', color: '#000000' })).body.id;
});

describe('project boards', () => {
  it('creates a board with label, assignee and milestone lists, moves and deletes lists', async () => {
    const board = await h.post(`/projects/${projectId}/boards`, { name: 'Development' });
    expect(board.status, board.text).toBe(201);
    expect(board.body).toMatchObject({ name: 'Development', hide_backlog_list: false, hide_closed_list: false, lists: [], project: { id: projectId } });
    const url = `/projects/${projectId}/boards/${board.body.id}/lists`;
    const todo = await h.post(url, { label_id: labels['workflow::todo'] });
    expect(todo.status, todo.text).toBe(201);
    expect(todo.body).toMatchObject({ position: 0, list_type: 'label', label: { name: 'workflow::todo', text_color: '#FFFFFF' } });
    const doing = (await h.post(url, { label_id: labels['workflow::doing'] })).body;
    const mine = (await h.post(url, { assignee_id: guest.id })).body;
    expect(mine).toMatchObject({ position: 2, list_type: 'assignee', assignee: { id: guest.id }, label: null });
    const milestone = (await h.post(`/projects/${projectId}/milestones`, { title: 'v1' })).body;
    expect((await h.post(url, { milestone_id: milestone.id })).body).toMatchObject({ list_type: 'milestone', milestone: { title: 'v1' } });
    expect((await h.post(url, { label_id: labels['workflow::todo'] })).status).toBe(400);
    expect((await h.post(url, { label_id: 999999 })).body).toEqual({ message: '400 Bad request - Label not found!' });
    expect((await h.post(url, {})).status).toBe(400);
    expect((await h.post(url, { label_id: labels.local, assignee_id: guest.id })).status).toBe(400);
    expect((await h.post(url, { label_id: labels.local }, { token: guest.token })).status).toBe(403);
    const moved = await h.put(`${url}/${mine.id}`, { position: 0 });
    expect(moved.body.position).toBe(0);
    expect((await h.get(url)).body.map((list: any) => list.id).slice(0, 3)).toEqual([mine.id, todo.body.id, doing.id]);
    expect((await h.put(`${url}/${mine.id}`, {})).body).toEqual({ error: 'position is missing' });
    expect((await h.delete(`${url}/${todo.body.id}`)).status).toBe(204);
    expect((await h.get(url)).body.map((list: any) => list.position)).toEqual([0, 1, 2]);
    expect((await h.get(`${url}/${todo.body.id}`)).status).toBe(404);
    const renamed = await h.put(`/projects/${projectId}/boards/${board.body.id}`, { name: 'Dev', hide_closed_list: true });
    expect(renamed.body).toMatchObject({ name: 'Dev', hide_closed_list: true });
    expect((await h.get(`/projects/${projectId}/boards`, { token: guest.token })).body.map((b: any) => b.name)).toEqual(['Dev']);
  });

  it('moves a card between label lists as an issue edit', async () => {
    const issue = (await h.post(`/projects/${projectId}/issues`, { title: 'Card', labels: 'workflow::todo' })).body;
    const moved = await h.put(`/projects/${projectId}/issues/${issue.iid}`, { remove_labels: 'workflow::todo', add_labels: 'workflow::doing' });
    expect(moved.body.labels).toEqual(['workflow::doing']);
    const column = await h.get(`/projects/${projectId}/issues?labels=workflow::doing&state=opened`);
    expect(column.body.map((i: any) => i.iid)).toEqual([issue.iid]);
  });
});

describe('group boards', () => {
  it('lists a group board over its subgroups with the group labels', async () => {
    const board = await h.post(`/groups/${groupId}/boards`, { name: 'Company' });
    expect(board.status, board.text).toBe(201);
    expect(board.body.group).toMatchObject({ id: groupId });
    const url = `/groups/${groupId}/boards/${board.body.id}/lists`;
    expect((await h.post(url, { label_id: labels['workflow::done'] })).status).toBe(201);
    // a project's label belongs to no group board
    expect((await h.post(url, { label_id: labels.local })).status).toBe(400);
    expect((await h.get(`/groups/${groupId}/boards/${board.body.id}`)).body.lists.map((list: any) => list.label.name)).toEqual(['workflow::done']);
    expect((await h.get(`/groups/${subgroupId}/boards/${board.body.id}`)).status).toBe(404);
    expect((await h.delete(`/groups/${groupId}/boards/${board.body.id}`)).status).toBe(204);
  });

  it('takes an assignee list for a member of the group or of a subgroup, not for an outsider', async () => {
    // the top group has no project of its own: membership, not readable projects, decides
    const board = (await h.post(`/groups/${groupId}/boards`, { name: 'People' })).body;
    const url = `/groups/${groupId}/boards/${board.id}/lists`;
    const subgroupMember = h.user();
    const outsider = h.user();
    expect((await h.post(`/groups/${subgroupId}/members`, { user_id: subgroupMember.id, access_level: 30 })).status).toBe(201);
    const list = await h.post(url, { assignee_id: subgroupMember.id });
    expect(list.status, list.text).toBe(201);
    expect(list.body).toMatchObject({ list_type: 'assignee', assignee: { id: subgroupMember.id } });
    expect((await h.post(url, { assignee_id: outsider.id })).body).toEqual({ message: '400 Bad request - User not found!' });
    // a project board: members of the project (its groups' members inherited), nobody else
    const projectBoard = (await h.post(`/projects/${projectId}/boards`, { name: 'People' })).body;
    const projectUrl = `/projects/${projectId}/boards/${projectBoard.id}/lists`;
    expect((await h.post(projectUrl, { assignee_id: subgroupMember.id })).status).toBe(201);
    expect((await h.post(projectUrl, { assignee_id: outsider.id })).status).toBe(400);
  });
});
