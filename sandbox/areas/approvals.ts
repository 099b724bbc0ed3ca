import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { HttpError, conflict, forbidden, notFound, paramError, unauthorized, validationError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, type ProjectRow } from '../model/access.ts';
import { protectionsOf } from '../model/protected-branches.ts';
import { timestamp } from '../model/time.ts';
import {
  RULE_TYPES, SETTING_FLAGS, approvalRefusal, approvalRuleEntity, approvalSettings, approvalSettingsEntity, approvalStateEntity, approvalStateOf,
  approvalsEntity, mergeRequestRules, passwordMatches, projectRules, saveApprovalSettings, type ApprovalRuleRow, type ApprovalSettingsRow,
  type RuleType,
} from '../model/approvals.ts';
import { branchHeads, canUpdateMergeRequest, projectRoleOf, type MergeRequestRow } from '../model/merge-requests.ts';
import { repositoryFor } from '../git/access.ts';
import { readCommits } from '../git/repository.ts';
import { iidParam, mergeRequestProject, requestOf } from './merge-requests.ts';

const RULE_NAME_MAX = 1024;

/** Maintainers and up change a project's approval settings and rules (`admin_project`). */
function requireMaintainerOf(call: Call, project: ProjectRow): void {
  if (projectRoleOf(call.sandbox.db, call.actor, project, call.now) < AccessLevel.MAINTAINER) throw forbidden();
}

function ruleIdParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'approval_rule_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('approval_rule_id is invalid');
  return Number(raw);
}

// -- rule input

interface RuleInput {
  name?: string;
  approvals_required?: number;
  rule_type?: RuleType;
  applies_to_all_protected_branches?: boolean;
  user_ids?: number[];
  group_ids?: number[];
  protected_branch_ids?: number[];
}

/** The writable attributes of a rule (spec 2, 4.7); `required` for create. */
function ruleInput(call: Call, required: boolean): RuleInput {
  const { params } = call;
  const input: RuleInput = {};
  collectParamErrors([
    () => { input.name = required ? params.requiredString('name') : params.string('name'); },
    () => { input.approvals_required = required ? params.requiredInt('approvals_required', { min: 0 }) : params.int('approvals_required', { min: 0 }); },
    () => { input.rule_type = params.oneOf('rule_type', RULE_TYPES); },
    () => { input.applies_to_all_protected_branches = params.bool('applies_to_all_protected_branches'); },
    () => { input.user_ids = params.intArray('user_ids'); },
    () => { input.group_ids = params.intArray('group_ids'); },
    () => { input.protected_branch_ids = params.intArray('protected_branch_ids'); },
    () => { params.stringArray('usernames'); },
    () => { params.oneOf('report_type', ['code_coverage', 'license_scanning'] as const); },
    () => { params.bool('remove_hidden_groups'); },
  ]);
  const usernames = params.stringArray('usernames');
  if (usernames?.length) {
    const ids = call.sandbox.db.prepare('SELECT id FROM users WHERE username IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(usernames)) as number[];
    input.user_ids = [...new Set([...(input.user_ids ?? []), ...ids])];
  }
  return input;
}

/** A rule after the input: ids kept only where they name real users, groups and this project's protections. */
function applyRuleInput(call: Call, project: ProjectRow, base: ApprovalRuleRow, input: RuleInput): ApprovalRuleRow {
  const { db } = call.sandbox;
  const next: ApprovalRuleRow = { ...base };
  if (input.name !== undefined) next.name = input.name.trim();
  if (input.approvals_required !== undefined) next.approvals_required = input.approvals_required;
  if (input.rule_type !== undefined) next.rule_type = input.rule_type;
  if (input.applies_to_all_protected_branches !== undefined) next.applies_to_all_protected_branches = input.applies_to_all_protected_branches ? 1 : 0;
  if (input.user_ids !== undefined) {
    next.user_ids = JSON.stringify(db.prepare("SELECT id FROM users WHERE id IN (SELECT value FROM json_each(?)) AND user_type NOT IN ('ghost') ORDER BY id")
      .pluck().all(JSON.stringify(input.user_ids)));
  }
  if (input.group_ids !== undefined) {
    next.group_ids = JSON.stringify(db.prepare("SELECT id FROM namespaces WHERE kind = 'group' AND id IN (SELECT value FROM json_each(?)) ORDER BY id")
      .pluck().all(JSON.stringify(input.group_ids)));
  }
  if (input.protected_branch_ids !== undefined) {
    const own = new Set(protectionsOf(db, project.id).map((protection) => protection.id));
    next.protected_branch_ids = JSON.stringify([...new Set(input.protected_branch_ids)].filter((id) => own.has(id)));
  }
  // an any_approver rule names nobody; a rule for all protected branches names none of them
  if (next.rule_type === 'any_approver') {
    next.user_ids = '[]';
    next.group_ids = '[]';
  }
  if (next.applies_to_all_protected_branches) next.protected_branch_ids = '[]';
  const errors: Record<string, string[]> = {};
  if (!next.name) errors.name = ["can't be blank"];
  else if (next.name.length > RULE_NAME_MAX) errors.name = [`is too long (maximum is ${RULE_NAME_MAX} characters)`];
  else {
    const taken = db.prepare('SELECT 1 FROM approval_rules WHERE project_id = ? AND merge_request_id IS ? AND name = ? AND id IS NOT ?')
      .get(project.id, next.merge_request_id, next.name, next.id || null);
    if (taken) errors.name = ['has already been taken'];
  }
  if (next.rule_type === 'any_approver') {
    const other = db.prepare("SELECT 1 FROM approval_rules WHERE project_id = ? AND merge_request_id IS ? AND rule_type = 'any_approver' AND id IS NOT ?")
      .get(project.id, next.merge_request_id, next.id || null);
    if (other) errors.rule_type = ['any-approver for the merge request already exists'];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return next;
}

function saveRule(call: Call, rule: ApprovalRuleRow): ApprovalRuleRow {
  const { db } = call.sandbox;
  const values = [rule.name, rule.rule_type, rule.approvals_required, rule.applies_to_all_protected_branches, rule.user_ids, rule.group_ids, rule.protected_branch_ids];
  if (rule.id) {
    db.prepare(
      `UPDATE approval_rules SET name = ?, rule_type = ?, approvals_required = ?, applies_to_all_protected_branches = ?, user_ids = ?, group_ids = ?,
         protected_branch_ids = ? WHERE id = ?`,
    ).run(...values, rule.id);
    return db.prepare('SELECT * FROM approval_rules WHERE id = ?').get(rule.id) as ApprovalRuleRow;
  }
  const result = db.prepare(
    `INSERT INTO approval_rules (project_id, merge_request_id, name, rule_type, approvals_required, applies_to_all_protected_branches, user_ids, group_ids,
       protected_branch_ids, source_rule_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(rule.project_id, rule.merge_request_id, ...values, rule.source_rule_id);
  return db.prepare('SELECT * FROM approval_rules WHERE id = ?').get(result.lastInsertRowid) as ApprovalRuleRow;
}

const blankRule = (projectId: number, mergeRequestId: number | null): ApprovalRuleRow => ({
  id: 0, project_id: projectId, merge_request_id: mergeRequestId, name: '', rule_type: 'regular', approvals_required: 0,
  applies_to_all_protected_branches: 0, user_ids: '[]', group_ids: '[]', protected_branch_ids: '[]', source_rule_id: null,
});

// -- approving

/** Emails of the request's commit authors and committers (for merge_requests_disable_committers_approval). */
async function committerEmails(call: Call, project: ProjectRow, row: MergeRequestRow): Promise<Set<string>> {
  const repo = repositoryFor(call, project);
  if (!repo) return new Set();
  const heads = await branchHeads(repo);
  const source = heads.get(row.source_branch) ?? row.head_sha;
  const target = heads.get(row.target_branch);
  if (!source) return new Set();
  const commits = await readCommits(repo, target ? [source, '--not', target] : [source, '--max-count=1']).catch(() => []);
  return new Set(commits.flatMap((commit) => [commit.authorEmail.toLowerCase(), commit.committerEmail.toLowerCase()]));
}

async function callerCanApprove(call: Call, project: ProjectRow, row: MergeRequestRow) {
  const state = approvalStateOf(call.sandbox.db, row, call.now);
  const settings = approvalSettings(call.sandbox.db, project.id);
  const emails = settings.merge_requests_disable_committers_approval ? await committerEmails(call, project, row) : new Set<string>();
  const role = projectRoleOf(call.sandbox.db, call.actor, project, call.now);
  const refusal = project.archived ? 'the project is archived' : approvalRefusal(call.sandbox.db, call.actor, row, state, role, emails);
  return { state, refusal };
}

async function approvalsAnswer(call: Call, project: ProjectRow, row: MergeRequestRow) {
  const { state, refusal } = await callerCanApprove(call, project, row);
  return approvalsEntity(call.sandbox, row, state, { userId: call.actor.user?.id ?? null, canApprove: refusal === null });
}

/** Whether a user is a bot of a project or group access token. */
const isTokenBot = (user: UserRow | null) => user?.user_type === 'project_bot';

export function registerApprovals(routes: Router): void {
  // -- project configuration

  routes.get('/projects/:id/approvals', {}, (c, call) => {
    const project = mergeRequestProject(c, call);
    return c.json(approvalSettingsEntity(approvalSettings(call.sandbox.db, project.id)));
  });

  routes.post('/projects/:id/approvals', {}, (c, call) => {
    const { params } = call;
    const values: Partial<Record<(typeof SETTING_FLAGS)[number] | 'require_password_to_approve', boolean>> = {};
    let before: number | undefined;
    collectParamErrors([
      () => { before = params.int('approvals_before_merge', { min: 0 }); },
      () => { values.require_password_to_approve = params.bool('require_password_to_approve'); },
      ...SETTING_FLAGS.map((flag) => () => { values[flag] = params.bool(flag); }),
    ]);
    const project = mergeRequestProject(c, call);
    requireMaintainerOf(call, project);
    const { db } = call.sandbox;
    const next: ApprovalSettingsRow = { ...approvalSettings(db, project.id) };
    if (before !== undefined) next.approvals_before_merge = before;
    for (const flag of SETTING_FLAGS) if (values[flag] !== undefined) next[flag] = values[flag] ? 1 : 0;
    // the deprecated name sets the same switch, unless the current name is given too
    if (values.require_reauthentication_to_approve === undefined && values.require_password_to_approve !== undefined) {
      next.require_reauthentication_to_approve = values.require_password_to_approve ? 1 : 0;
    }
    if (next.selective_code_owner_removals && next.reset_approvals_on_push) {
      throw validationError({ selective_code_owner_removals: ['can only be enabled when reset_approvals_on_push is disabled'] });
    }
    saveApprovalSettings(db, next);
    return c.json(approvalSettingsEntity(approvalSettings(db, project.id)), 201);
  });

  // -- project rules

  routes.get('/projects/:id/approval_rules', {}, (c, call) => {
    const project = mergeRequestProject(c, call);
    const rules = projectRules(call.sandbox.db, project.id);
    return c.json(pageOfArray(c, call.params, rules).map((rule) => approvalRuleEntity(call.sandbox, rule, call.now)));
  });

  const projectRuleOf = (call: Call, project: ProjectRow, id: number) => {
    const rule = call.sandbox.db.prepare('SELECT * FROM approval_rules WHERE id = ? AND project_id = ? AND merge_request_id IS NULL').get(id, project.id) as ApprovalRuleRow | undefined;
    if (!rule) throw notFound();
    return rule;
  };

  routes.get('/projects/:id/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const project = mergeRequestProject(c, call);
    return c.json(approvalRuleEntity(call.sandbox, projectRuleOf(call, project, id), call.now));
  });

  routes.post('/projects/:id/approval_rules', {}, (c, call) => {
    const input = ruleInput(call, true);
    const project = mergeRequestProject(c, call);
    requireMaintainerOf(call, project);
    const rule = call.sandbox.db.transaction(() => saveRule(call, applyRuleInput(call, project, blankRule(project.id, null), input)))();
    return c.json(approvalRuleEntity(call.sandbox, rule, call.now), 201);
  });

  routes.put('/projects/:id/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const input = ruleInput(call, false);
    const project = mergeRequestProject(c, call);
    requireMaintainerOf(call, project);
    const rule = call.sandbox.db.transaction(() => saveRule(call, applyRuleInput(call, project, projectRuleOf(call, project, id), input)))();
    return c.json(approvalRuleEntity(call.sandbox, rule, call.now));
  });

  routes.delete('/projects/:id/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const project = mergeRequestProject(c, call);
    requireMaintainerOf(call, project);
    call.sandbox.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(projectRuleOf(call, project, id).id);
    return c.body(null, 204);
  });

  // -- merge request rules: where the project lets requests override its rules

  routes.get('/projects/:id/merge_requests/:merge_request_iid/approval_rules', {}, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    return c.json(pageOfArray(c, call.params, mergeRequestRules(call.sandbox.db, row.id)).map((rule) => approvalRuleEntity(call.sandbox, rule, call.now)));
  });

  /** The request whose rules the caller edits: 403 unless they may update it and the project allows overriding. */
  const editableRequest = (c: Context<AppEnv>, call: Call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    if (!canUpdateMergeRequest(call.sandbox.db, call.actor, project, row, call.now)) throw forbidden();
    if (approvalSettings(call.sandbox.db, project.id).disable_overriding_approvers_per_merge_request) throw forbidden();
    if (row.state === 'merged') throw forbidden();
    return { project, row };
  };

  const requestRuleOf = (call: Call, row: MergeRequestRow, id: number) => {
    const rule = call.sandbox.db.prepare('SELECT * FROM approval_rules WHERE id = ? AND merge_request_id = ?').get(id, row.id) as ApprovalRuleRow | undefined;
    if (!rule) throw notFound();
    return rule;
  };

  routes.get('/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    return c.json(approvalRuleEntity(call.sandbox, requestRuleOf(call, requestOf(call, project, iid), id), call.now));
  });

  routes.post('/projects/:id/merge_requests/:merge_request_iid/approval_rules', {}, (c, call) => {
    const input = ruleInput(call, true);
    let sourceId: number | undefined;
    collectParamErrors([() => { sourceId = call.params.int('approval_project_rule_id'); }]);
    const { project, row } = editableRequest(c, call);
    const base = blankRule(project.id, row.id);
    if (sourceId !== undefined) {
      // a copy of a project rule: its users and groups, with the approvals asked for here
      const source = call.sandbox.db.prepare('SELECT * FROM approval_rules WHERE id = ? AND project_id = ? AND merge_request_id IS NULL').get(sourceId, project.id) as ApprovalRuleRow | undefined;
      if (!source) throw notFound();
      Object.assign(base, { rule_type: source.rule_type, user_ids: source.user_ids, group_ids: source.group_ids, source_rule_id: source.id });
    }
    const rule = call.sandbox.db.transaction(() => saveRule(call, applyRuleInput(call, project, base, input)))();
    return c.json(approvalRuleEntity(call.sandbox, rule, call.now), 201);
  });

  routes.put('/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const input = ruleInput(call, false);
    const { project, row } = editableRequest(c, call);
    const rule = call.sandbox.db.transaction(() => saveRule(call, applyRuleInput(call, project, requestRuleOf(call, row, id), input)))();
    return c.json(approvalRuleEntity(call.sandbox, rule, call.now));
  });

  routes.delete('/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id', {}, (c, call) => {
    const id = ruleIdParam(c);
    const { row } = editableRequest(c, call);
    call.sandbox.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(requestRuleOf(call, row, id).id);
    return c.body(null, 204);
  });

  // -- approvals of a request

  routes.get('/projects/:id/merge_requests/:merge_request_iid/approvals', { async: true }, async (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    return c.json(await approvalsAnswer(call, project, requestOf(call, project, iid)));
  });

  routes.get('/projects/:id/merge_requests/:merge_request_iid/approval_state', {}, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    return c.json(approvalStateEntity(call.sandbox, approvalStateOf(call.sandbox.db, row, call.now), call.now));
  });

  routes.post('/projects/:id/merge_requests/:merge_request_iid/approve', { async: true }, async (c, call) => {
    const iid = iidParam(c);
    collectParamErrors([() => call.params.string('sha'), () => call.params.string('approval_password')]);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const { db } = call.sandbox;
    // approve_merge_request: Developer and up, or a user a rule names
    const named = approvalStateOf(db, row, call.now).rules.some((rule) => rule.eligible !== 'anyone' && rule.eligible.includes(call.actor.user!.id));
    if (!named && projectRoleOf(db, call.actor, project, call.now) < AccessLevel.DEVELOPER) throw forbidden();
    const sha = call.params.string('sha');
    if (sha) {
      const head = (await branchHeads(repositoryFor(call, project))).get(row.source_branch) ?? row.head_sha;
      if (sha !== head) throw conflict(`SHA does not match HEAD of source branch: ${head}`);
    }
    if (approvalSettings(db, project.id).require_reauthentication_to_approve) {
      const password = call.params.string('approval_password');
      if (!password || !passwordMatches(call.actor.user!.password_digest ?? null, password)) throw new HttpError(401, { message: '401 Unauthorized - Approval password is invalid' });
    }
    const { refusal } = await callerCanApprove(call, project, row);
    if (refusal) throw unauthorized();
    db.transaction(() => {
      db.prepare('INSERT OR IGNORE INTO merge_request_approvals (merge_request_id, user_id, created_at) VALUES (?, ?, ?)')
        .run(row.id, call.actor.user!.id, timestamp(call.now));
      db.prepare("UPDATE merge_request_reviewers SET state = 'approved' WHERE merge_request_id = ? AND user_id = ?").run(row.id, call.actor.user!.id);
    })();
    return c.json(await approvalsAnswer(call, project, row), 201);
  });

  routes.post('/projects/:id/merge_requests/:merge_request_iid/unapprove', { async: true }, async (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const { db } = call.sandbox;
    const removed = db.transaction(() => {
      const result = db.prepare('DELETE FROM merge_request_approvals WHERE merge_request_id = ? AND user_id = ?').run(row.id, call.actor.user!.id);
      if (result.changes) db.prepare("UPDATE merge_request_reviewers SET state = 'unapproved' WHERE merge_request_id = ? AND user_id = ?").run(row.id, call.actor.user!.id);
      return result.changes > 0;
    })();
    if (!removed) throw notFound();
    return c.json(await approvalsAnswer(call, project, row), 201);
  });

  routes.put('/projects/:id/merge_requests/:merge_request_iid/reset_approvals', {}, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    // bots of project and group access tokens only, and only with rights on the request
    if (!isTokenBot(call.actor.user) || !canUpdateMergeRequest(call.sandbox.db, call.actor, project, row, call.now)) throw unauthorized();
    const { db } = call.sandbox;
    db.transaction(() => {
      db.prepare('DELETE FROM merge_request_approvals WHERE merge_request_id = ?').run(row.id);
      db.prepare("UPDATE merge_request_reviewers SET state = 'unreviewed' WHERE merge_request_id = ? AND state = 'approved'").run(row.id);
    })();
    return c.body(null, 202);
  });
}
