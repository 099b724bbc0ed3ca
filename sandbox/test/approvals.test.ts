import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordDigest, passwordMatches } from '../model/approvals.ts';
import { createHarness } from './harness.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';

/** Approval settings, approval rules, approving and what approvals do to merging (spec 2, 2.4–2.6, 3, 4.4–4.7). */

let clock = new Date('2024-06-01T09:00:00Z');
const h = createHarness({ now: () => clock });
const tick = () => {
  clock = new Date(clock.getTime() + 60_000);
};

let author: ApiUser;
let developer: ApiUser;
let second: ApiUser;
let reporter: ApiUser;
let maintainer: ApiUser;
let outsider: ApiUser;
let groupId = 0;
let projectId = 0;
let counter = 0;

async function addMember(userId: number, level: number) {
  const answer = await h.post(`/projects/${projectId}/members`, { user_id: userId, access_level: level });
  expect(answer.status, answer.text).toBe(201);
}

async function commit(branch: string, path: string, content: string, token?: string) {
  tick();
  const answer = await h.post(`/projects/${projectId}/repository/commits`, {
    branch, commit_message: `Change ${path}`, actions: [{ action: 'create', file_path: path, content }],
  }, token ? { token } : undefined);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** A new branch with a commit by `author`, and an open request from it by `author`. */
async function openRequest(extra: Record<string, unknown> = {}) {
  const branch = `topic-${++counter}`;
  expect((await h.post(`/projects/${projectId}/repository/branches?branch=${branch}&ref=main`)).status).toBe(201);
  const sha = await commit(branch, `${branch}.txt`, `${branch}\n`, author.token);
  tick();
  const answer = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Work ${branch}`, ...extra }, { token: author.token });
  expect(answer.status, answer.text).toBe(201);
  return { iid: answer.body.iid as number, branch, sha };
}

const settings = (body: Record<string, unknown>, token?: string) => h.post(`/projects/${projectId}/approvals`, body, token ? { token } : undefined);
const approve = (iid: number, body: Record<string, unknown>, token: string) => h.post(`/projects/${projectId}/merge_requests/${iid}/approve`, body, { token });
const mr = (iid: number) => h.get(`/projects/${projectId}/merge_requests/${iid}`);

async function clearRules() {
  for (const rule of (await h.get(`/projects/${projectId}/approval_rules`)).body) {
    expect((await h.delete(`/projects/${projectId}/approval_rules/${rule.id}`)).status).toBe(204);
  }
}

beforeAll(async () => {
  author = await apiUser(h);
  developer = await apiUser(h);
  second = await apiUser(h);
  reporter = await apiUser(h);
  maintainer = await apiUser(h);
  outsider = await apiUser(h);
  const group = await h.post('/groups', { name: 'Approvers', path: 'approvers' });
  expect(group.status, group.text).toBe(201);
  groupId = group.body.id;
  const project = await h.post('/projects', { name: 'Reviewed', namespace_id: groupId, visibility: 'private' });
  expect(project.status, project.text).toBe(201);
  projectId = project.body.id;
  await addMember(author.id, 30);
  await addMember(developer.id, 30);
  await addMember(second.id, 30);
  await addMember(reporter.id, 20);
  await addMember(maintainer.id, 40);
  await commit('main', 'README.md', 'hello\n');
});

afterAll(() => h.close());

describe('project approval configuration', () => {
  it('starts at the platform defaults and changes field by field', async () => {
    const initial = await h.get(`/projects/${projectId}/approvals`);
    expect(initial.status, initial.text).toBe(200);
    expect(initial.body).toEqual({
      approvers: [], approver_groups: [], approvals_before_merge: 0, reset_approvals_on_push: true, selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: false, merge_requests_author_approval: false, merge_requests_disable_committers_approval: false,
      require_password_to_approve: false, require_reauthentication_to_approve: false,
    });
    const changed = await settings({ merge_requests_author_approval: true, approvals_before_merge: 2 }, maintainer.token);
    expect(changed.status, changed.text).toBe(201);
    expect(changed.body).toMatchObject({ merge_requests_author_approval: true, approvals_before_merge: 2, reset_approvals_on_push: true });
    // the deprecated switch sets the current one
    expect((await settings({ require_password_to_approve: true })).body).toMatchObject({ require_password_to_approve: true, require_reauthentication_to_approve: true });
    expect((await settings({ require_reauthentication_to_approve: false, merge_requests_author_approval: false, approvals_before_merge: 0 })).body)
      .toMatchObject({ require_password_to_approve: false, merge_requests_author_approval: false });
  });

  it('needs reset_approvals_on_push off for selective_code_owner_removals', async () => {
    const refused = await settings({ selective_code_owner_removals: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { selective_code_owner_removals: ['can only be enabled when reset_approvals_on_push is disabled'] } });
    expect((await h.get(`/projects/${projectId}/approvals`)).body.selective_code_owner_removals).toBe(false);
    const both = await settings({ selective_code_owner_removals: true, reset_approvals_on_push: false });
    expect(both.body).toMatchObject({ selective_code_owner_removals: true, reset_approvals_on_push: false });
    expect((await settings({ reset_approvals_on_push: true })).status).toBe(400);
    expect((await settings({ selective_code_owner_removals: false, reset_approvals_on_push: true })).body).toMatchObject({ reset_approvals_on_push: true });
  });

  it('is for maintainers to change; bad values are 400; outsiders see 404', async () => {
    expect((await settings({ reset_approvals_on_push: false }, developer.token)).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/approvals`, { token: developer.token })).status).toBe(200);
    expect((await settings({ reset_approvals_on_push: 'maybe' })).body).toEqual({ error: 'reset_approvals_on_push is invalid' });
    expect((await settings({ approvals_before_merge: -1 })).body).toEqual({ error: 'approvals_before_merge does not have a valid value' });
    expect((await h.get(`/projects/${projectId}/approvals`, { token: outsider.token })).status).toBe(404);
  });
});

describe('project approval rules', () => {
  it('creates, reads, updates and deletes rules with users, groups and protected branches', async () => {
    const protections = (await h.get(`/projects/${projectId}/protected_branches`)).body;
    const main = protections.find((protection: any) => protection.name === 'main');
    expect(main).toBeDefined();
    const created = await h.post(`/projects/${projectId}/approval_rules`, {
      name: 'Security', approvals_required: 2, rule_type: 'regular', user_ids: [developer.id, 999999], usernames: [second.username],
      group_ids: [groupId], protected_branch_ids: [main.id, 424242],
    }, { token: maintainer.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Security', rule_type: 'regular', approvals_required: 2, applies_to_all_protected_branches: false, contains_hidden_groups: false,
      users: [{ id: developer.id }, { id: second.id }], groups: [{ id: groupId, path: 'approvers' }], protected_branches: [{ id: main.id, name: 'main' }],
    });
    const id = created.body.id;
    expect((await h.get(`/projects/${projectId}/approval_rules/${id}`)).body).toEqual(created.body);
    expect((await h.get(`/projects/${projectId}/approval_rules`)).body.map((rule: any) => rule.id)).toEqual([id]);
    const updated = await h.put(`/projects/${projectId}/approval_rules/${id}`, { approvals_required: 1, user_ids: [developer.id], group_ids: [], applies_to_all_protected_branches: true });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ approvals_required: 1, users: [{ id: developer.id }], groups: [], protected_branches: [], applies_to_all_protected_branches: true });
    expect(updated.body.eligible_approvers.map((user: any) => user.id)).toEqual([developer.id]);
    expect((await h.delete(`/projects/${projectId}/approval_rules/${id}`)).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/approval_rules/${id}`)).status).toBe(404);
    expect((await h.delete(`/projects/${projectId}/approval_rules/${id}`)).status).toBe(404);
  });

  it('validates names and numbers, allows one any_approver rule, and is for maintainers', async () => {
    expect((await h.post(`/projects/${projectId}/approval_rules`, { approvals_required: 1 })).body).toEqual({ error: 'name is missing' });
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'x' })).body).toEqual({ error: 'approvals_required is missing' });
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'x', approvals_required: -1 })).status).toBe(400);
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'x', approvals_required: 1, rule_type: 'magic' })).body).toEqual({ error: 'rule_type does not have a valid value' });
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'n'.repeat(1025), approvals_required: 1 })).body)
      .toEqual({ message: { name: ['is too long (maximum is 1024 characters)'] } });
    const any = await h.post(`/projects/${projectId}/approval_rules`, { name: 'Anyone', approvals_required: 1, rule_type: 'any_approver', user_ids: [developer.id] });
    expect(any.status, any.text).toBe(201);
    expect(any.body).toMatchObject({ rule_type: 'any_approver', users: [], eligible_approvers: [] });
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'Anyone', approvals_required: 1 })).body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'Again', approvals_required: 1, rule_type: 'any_approver' })).status).toBe(400);
    expect((await h.post(`/projects/${projectId}/approval_rules`, { name: 'Dev', approvals_required: 1 }, { token: developer.token })).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/approval_rules/abc`)).body).toEqual({ error: 'approval_rule_id is invalid' });
    await clearRules();
  });
});

describe('approving', () => {
  it('records an approval, answers the approval result, and lets the approver take it back', async () => {
    await h.post(`/projects/${projectId}/approval_rules`, { name: 'Two', approvals_required: 2, rule_type: 'any_approver' });
    const { iid, sha } = await openRequest({ reviewer_ids: [developer.id] });
    expect((await mr(iid)).body.detailed_merge_status).toBe('not_approved');
    const before = await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`, { token: developer.token });
    expect(before.body).toMatchObject({ iid, approvals_required: 2, approvals_left: 2, approved: false, approved_by: [], user_can_approve: true, user_has_approved: false });
    const approved = await approve(iid, { sha }, developer.token);
    expect(approved.status, approved.text).toBe(201);
    expect(approved.body).toMatchObject({ approvals_left: 1, approved_by: [{ user: { id: developer.id, username: developer.username } }], user_has_approved: true, user_can_approve: false });
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/reviewers`)).body[0].state).toBe('approved');
    // twice is refused
    expect((await approve(iid, {}, developer.token)).status).toBe(401);
    // merging waits for the second approval
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/merge`, {})).status).toBe(405);
    expect((await h.get(`/projects/${projectId}/merge_requests?approved_by_ids[]=${developer.id}`)).body.map((row: any) => row.iid)).toEqual([iid]);
    expect((await h.get(`/projects/${projectId}/merge_requests?approved_by_ids=Any`)).body.map((row: any) => row.iid)).toEqual([iid]);
    const state = await h.get(`/projects/${projectId}/merge_requests/${iid}/approval_state`);
    expect(state.body).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'Two', approved: false, approved_by: [{ id: developer.id }], approvals_required: 2 }] });
    const back = await h.post(`/projects/${projectId}/merge_requests/${iid}/unapprove`, {}, { token: developer.token });
    expect(back.status, back.text).toBe(201);
    expect(back.body).toMatchObject({ approvals_left: 2, approved_by: [] });
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/reviewers`)).body[0].state).toBe('unapproved');
    expect((await h.post(`/projects/${projectId}/merge_requests/${iid}/unapprove`, {}, { token: developer.token })).status).toBe(404);
    await approve(iid, {}, developer.token);
    await approve(iid, {}, second.token);
    expect((await mr(iid)).body.detailed_merge_status).toBe('mergeable');
    const merged = await h.put(`/projects/${projectId}/merge_requests/${iid}/merge`, {});
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.state).toBe('merged');
    await clearRules();
  });

  it('answers 409 when the sha is not the head of the source branch', async () => {
    const { iid, branch, sha } = await openRequest();
    const newer = await commit(branch, 'later.txt', 'later\n');
    const stale = await approve(iid, { sha }, developer.token);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(newer);
    expect((await approve(iid, { sha: newer }, developer.token)).status).toBe(201);
  });

  it('refuses the author unless authors may approve, and Reporters and outsiders', async () => {
    const { iid } = await openRequest();
    expect((await approve(iid, {}, author.token)).status).toBe(401);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`, { token: author.token })).body.user_can_approve).toBe(false);
    expect((await approve(iid, {}, reporter.token)).status).toBe(403);
    expect((await approve(iid, {}, outsider.token)).status).toBe(404);
    await settings({ merge_requests_author_approval: true });
    expect((await approve(iid, {}, author.token)).status).toBe(201);
    await settings({ merge_requests_author_approval: false });
  });

  it('refuses committers when committers may not approve', async () => {
    const { iid, branch } = await openRequest();
    await commit(branch, 'by-developer.txt', 'x\n', developer.token);
    await settings({ merge_requests_disable_committers_approval: true });
    expect((await approve(iid, {}, developer.token)).status).toBe(401);
    expect((await approve(iid, {}, second.token)).status).toBe(201);
    await settings({ merge_requests_disable_committers_approval: false });
    expect((await approve(iid, {}, developer.token)).status).toBe(201);
  });

  it('asks for the password again when the project requires it', async () => {
    const { iid } = await openRequest();
    await settings({ require_reauthentication_to_approve: true });
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body.require_password_to_approve).toBe(true);
    const missing = await approve(iid, {}, developer.token);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: '401 Unauthorized - Approval password is invalid' });
    expect((await approve(iid, { approval_password: 'wrong-password' }, developer.token)).status).toBe(401);
    // the fixture users were created with this password
    expect((await approve(iid, { approval_password: 'secret-password-1' }, developer.token)).status).toBe(201);
    // a password changed by an administrator is the one asked for
    expect((await h.put(`/users/${second.id}`, { password: 'another-password-2' })).status).toBe(200);
    expect((await approve(iid, { approval_password: 'secret-password-1' }, second.token)).status).toBe(401);
    expect((await approve(iid, { approval_password: 'another-password-2' }, second.token)).status).toBe(201);
    await settings({ require_reauthentication_to_approve: false });
  });

  it('checks a password digest at the cost it was written with; one written before the cost was kept, at Node\'s default', () => {
    const cheap = passwordDigest('secret-password-1', 16);
    expect(cheap.startsWith('scrypt$16$')).toBe(true);
    expect(passwordMatches(cheap, 'secret-password-1')).toBe(true);
    expect(passwordMatches(cheap, 'secret-password-2')).toBe(false);
    const salt = crypto.randomBytes(16);
    const legacy = `scrypt$${salt.toString('hex')}$${crypto.scryptSync('secret-password-1', salt, 32).toString('hex')}`;
    expect(passwordMatches(legacy, 'secret-password-1')).toBe(true);
    expect(passwordMatches(legacy, 'secret-password-2')).toBe(false);
    expect(passwordMatches('scrypt$3$00$00', 'secret-password-1')).toBe(false);
  });

  it('clears approvals on a push to the source branch when reset_approvals_on_push is on, keeps them when off', async () => {
    const { iid, branch } = await openRequest();
    await approve(iid, {}, developer.token);
    await commit(branch, 'push-1.txt', 'x\n');
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body.approved_by).toEqual([]);
    // a write through the files API is a push too
    await approve(iid, {}, developer.token);
    tick();
    const file = await h.put(`/projects/${projectId}/repository/files/push-1.txt`, { branch, content: 'y\n', commit_message: 'Edit through files' });
    expect(file.status, file.text).toBe(200);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body.approved_by).toEqual([]);
    await settings({ reset_approvals_on_push: false });
    await approve(iid, {}, developer.token);
    await commit(branch, 'push-2.txt', 'x\n');
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body.approved_by).toHaveLength(1);
    await settings({ reset_approvals_on_push: true });
  });

  it('resets approvals for bots of group tokens only (401 for people)', async () => {
    const { iid } = await openRequest();
    await approve(iid, {}, developer.token);
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/reset_approvals`, {}, { token: maintainer.token })).status).toBe(401);
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/reset_approvals`, {})).status).toBe(401);
    const token = await h.post(`/groups/${groupId}/access_tokens`, { name: 'bot', scopes: ['api'], access_level: 30 });
    expect(token.status, token.text).toBe(201);
    const reset = await h.put(`/projects/${projectId}/merge_requests/${iid}/reset_approvals`, {}, { token: token.body.token });
    expect(reset.status, reset.text).toBe(202);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body.approved_by).toEqual([]);
  });
});

describe('rules that decide approvals', () => {
  it('counts only named approvers for a regular rule, and applies branch-bound rules to their branches only', async () => {
    const named = await h.post(`/projects/${projectId}/approval_rules`, { name: 'Named', approvals_required: 1, user_ids: [second.id] });
    expect(named.status, named.text).toBe(201);
    const { iid } = await openRequest();
    await approve(iid, {}, developer.token);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body).toMatchObject({ approvals_left: 1, approval_rules_left: [{ name: 'Named' }] });
    await approve(iid, {}, second.token);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approvals`)).body).toMatchObject({ approvals_left: 0, approved: true });
    // bound to a protection that does not match main: the rule leaves requests into main alone
    const other = await h.post(`/projects/${projectId}/protected_branches`, { name: 'release/*' });
    expect(other.status, other.text).toBe(201);
    await h.put(`/projects/${projectId}/approval_rules/${named.body.id}`, { protected_branch_ids: [other.body.id], approvals_required: 3 });
    const later = await openRequest();
    expect((await h.get(`/projects/${projectId}/merge_requests/${later.iid}/approvals`)).body).toMatchObject({ approvals_required: 0, has_approval_rules: false });
    expect((await h.get(`/projects/${projectId}/merge_requests?approver_ids[]=${second.id}&state=opened`)).body.length).toBeGreaterThan(0);
    await clearRules();
  });

  it('lets a request override the project rules unless the project forbids it', async () => {
    const projectRule = await h.post(`/projects/${projectId}/approval_rules`, { name: 'Base', approvals_required: 1, user_ids: [developer.id] });
    const { iid } = await openRequest();
    const base = `/projects/${projectId}/merge_requests/${iid}/approval_rules`;
    const own = await h.post(base, { name: 'Mine', approvals_required: 2, approval_project_rule_id: projectRule.body.id }, { token: author.token });
    expect(own.status, own.text).toBe(201);
    expect(own.body).toMatchObject({ name: 'Mine', approvals_required: 2, users: [{ id: developer.id }] });
    expect((await h.get(base)).body.map((rule: any) => rule.name)).toEqual(['Mine']);
    expect((await h.get(`${base}/${own.body.id}`)).body.id).toBe(own.body.id);
    const state = await h.get(`/projects/${projectId}/merge_requests/${iid}/approval_state`);
    expect(state.body).toMatchObject({ approval_rules_overwritten: true, rules: [{ name: 'Mine', approvals_required: 2 }] });
    expect((await h.put(`${base}/${own.body.id}`, { approvals_required: 1 }, { token: author.token })).body.approvals_required).toBe(1);
    expect((await h.post(base, { name: 'Nope', approvals_required: 1 }, { token: reporter.token })).status).toBe(403);
    await settings({ disable_overriding_approvers_per_merge_request: true });
    expect((await h.post(base, { name: 'Blocked', approvals_required: 1 }, { token: author.token })).status).toBe(403);
    // overriding off: the project's rules decide again
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}/approval_state`)).body).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'Base' }] });
    await settings({ disable_overriding_approvers_per_merge_request: false });
    expect((await h.delete(`${base}/${own.body.id}`, { token: author.token })).status).toBe(204);
    expect((await h.get(`${base}/${own.body.id}`)).status).toBe(404);
    await clearRules();
  });
});

describe('bad input on the approval endpoints', () => {
  it('answers 4xx with a message, never 500', async () => {
    const { iid } = await openRequest();
    const values: unknown[] = [null, true, -1, 1.5, 'x', '', [], [1, 'x'], { a: 1 }, 'n'.repeat(3000), '\u0000', 2 ** 60];
    const fields = ['name', 'approvals_required', 'rule_type', 'user_ids', 'group_ids', 'protected_branch_ids', 'usernames', 'applies_to_all_protected_branches',
      'approval_project_rule_id', 'sha', 'approval_password', 'reset_approvals_on_push', 'approvals_before_merge'];
    const targets: Array<[string, string]> = [
      ['POST', `/projects/${projectId}/approvals`], ['POST', `/projects/${projectId}/approval_rules`], ['PUT', `/projects/${projectId}/approval_rules/1`],
      ['POST', `/projects/${projectId}/merge_requests/${iid}/approval_rules`], ['POST', `/projects/${projectId}/merge_requests/${iid}/approve`],
      ['GET', `/projects/${projectId}/merge_requests/${iid}/approvals`], ['GET', `/projects/${projectId}/merge_requests`], ['GET', `/groups/${groupId}/merge_requests`],
    ];
    for (const [method, url] of targets) {
      for (const field of fields) {
        for (const value of values) {
          const answer = method === 'GET'
            ? await h.get(`${url}?${field}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
            : await h.call(method, url, { json: { [field]: value } });
          expect(answer.status, `${method} ${url} ${field}=${JSON.stringify(value)?.slice(0, 40)} -> ${answer.text.slice(0, 200)}`).toBeLessThan(500);
          if (answer.status >= 400) expect(answer.body).toSatisfy((body: any) => 'message' in body || 'error' in body);
        }
      }
    }
    for (const path of ['approvals', 'approval_state', 'reviewers', 'participants', 'changes', 'approval_rules']) {
      expect((await h.get(`/projects/${projectId}/merge_requests/abc/${path}`)).status).toBe(400);
      expect((await h.get(`/projects/${projectId}/merge_requests/99999/${path}`)).status).toBe(404);
    }
  }, 60_000);
});
