import crypto from 'node:crypto';
import type { Actor, Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { AccessLevel, membershipsOf } from './access.ts';
import { userBasic } from './entities.ts';
import { protectedBranchEntity, protectionMatches, protectionsOf, type ProtectedBranchRow } from './protected-branches.ts';
import { mergeRequestHead, type MergeRequestRow } from './merge-requests.ts';

// -- project configuration (spec 2, section 2.4)

export interface ApprovalSettingsRow {
  project_id: number;
  approvals_before_merge: number;
  reset_approvals_on_push: number;
  selective_code_owner_removals: number;
  disable_overriding_approvers_per_merge_request: number;
  merge_requests_author_approval: number;
  merge_requests_disable_committers_approval: number;
  require_reauthentication_to_approve: number;
}

export const SETTING_FLAGS = [
  'reset_approvals_on_push', 'selective_code_owner_removals', 'disable_overriding_approvers_per_merge_request',
  'merge_requests_author_approval', 'merge_requests_disable_committers_approval', 'require_reauthentication_to_approve',
] as const;

/** A project's settings; the platform's defaults while it has none stored. */
export function approvalSettings(db: Db, projectId: number): ApprovalSettingsRow {
  const row = db.prepare('SELECT * FROM project_approval_settings WHERE project_id = ?').get(projectId) as ApprovalSettingsRow | undefined;
  return row ?? {
    project_id: projectId, approvals_before_merge: 0, reset_approvals_on_push: 1, selective_code_owner_removals: 0,
    disable_overriding_approvers_per_merge_request: 0, merge_requests_author_approval: 0, merge_requests_disable_committers_approval: 0,
    require_reauthentication_to_approve: 0,
  };
}

export function saveApprovalSettings(db: Db, row: ApprovalSettingsRow): void {
  db.prepare(
    `INSERT INTO project_approval_settings (project_id, approvals_before_merge, reset_approvals_on_push, selective_code_owner_removals,
       disable_overriding_approvers_per_merge_request, merge_requests_author_approval, merge_requests_disable_committers_approval, require_reauthentication_to_approve)
     VALUES (@project_id, @approvals_before_merge, @reset_approvals_on_push, @selective_code_owner_removals, @disable_overriding_approvers_per_merge_request,
       @merge_requests_author_approval, @merge_requests_disable_committers_approval, @require_reauthentication_to_approve)
     ON CONFLICT(project_id) DO UPDATE SET approvals_before_merge = excluded.approvals_before_merge, reset_approvals_on_push = excluded.reset_approvals_on_push,
       selective_code_owner_removals = excluded.selective_code_owner_removals,
       disable_overriding_approvers_per_merge_request = excluded.disable_overriding_approvers_per_merge_request,
       merge_requests_author_approval = excluded.merge_requests_author_approval,
       merge_requests_disable_committers_approval = excluded.merge_requests_disable_committers_approval,
       require_reauthentication_to_approve = excluded.require_reauthentication_to_approve`,
  ).run(row);
}

export function approvalSettingsEntity(row: ApprovalSettingsRow) {
  return {
    approvers: [],
    approver_groups: [],
    approvals_before_merge: row.approvals_before_merge,
    reset_approvals_on_push: Boolean(row.reset_approvals_on_push),
    selective_code_owner_removals: Boolean(row.selective_code_owner_removals),
    disable_overriding_approvers_per_merge_request: Boolean(row.disable_overriding_approvers_per_merge_request),
    merge_requests_author_approval: Boolean(row.merge_requests_author_approval),
    merge_requests_disable_committers_approval: Boolean(row.merge_requests_disable_committers_approval),
    // the deprecated name and the current one are the same setting
    require_password_to_approve: Boolean(row.require_reauthentication_to_approve),
    require_reauthentication_to_approve: Boolean(row.require_reauthentication_to_approve),
  };
}

// -- rules

export const RULE_TYPES = ['any_approver', 'regular'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export interface ApprovalRuleRow {
  id: number;
  project_id: number;
  merge_request_id: number | null;
  name: string;
  rule_type: RuleType;
  approvals_required: number;
  applies_to_all_protected_branches: number;
  user_ids: string;
  group_ids: string;
  protected_branch_ids: string;
  source_rule_id: number | null;
}

export const idsOf = (json: string) => JSON.parse(json) as number[];

export function projectRules(db: Db, projectId: number): ApprovalRuleRow[] {
  return db.prepare('SELECT * FROM approval_rules WHERE project_id = ? AND merge_request_id IS NULL ORDER BY id').all(projectId) as ApprovalRuleRow[];
}

export function mergeRequestRules(db: Db, mergeRequestId: number): ApprovalRuleRow[] {
  return db.prepare('SELECT * FROM approval_rules WHERE merge_request_id = ? ORDER BY id').all(mergeRequestId) as ApprovalRuleRow[];
}

/** Users of a rule's groups: active members of each group, inherited ones included. */
function groupMemberIds(db: Db, groupIds: readonly number[], now: Date): number[] {
  const ids = new Set<number>();
  for (const groupId of groupIds) {
    for (const membership of membershipsOf(db, { type: 'Namespace', id: groupId }, now)) {
      if (membership.state === 'active' && membership.accessLevel >= AccessLevel.GUEST) ids.add(membership.userId);
    }
  }
  return [...ids];
}

/** Who may approve for a rule: its users and its groups' members; anyone able to approve for `any_approver`. */
export function eligibleApproverIds(db: Db, rule: ApprovalRuleRow, now: Date): number[] | 'anyone' {
  if (rule.rule_type === 'any_approver') return 'anyone';
  return [...new Set([...idsOf(rule.user_ids), ...groupMemberIds(db, idsOf(rule.group_ids), now)])];
}

/** Whether a project rule applies to a target branch: no branches named, all protected ones, or a named protection matching. */
export function ruleAppliesTo(rule: ApprovalRuleRow, branch: string, protections: readonly ProtectedBranchRow[]): boolean {
  if (rule.applies_to_all_protected_branches) return protections.some((protection) => protectionMatches(protection.name, branch));
  const named = idsOf(rule.protected_branch_ids);
  if (!named.length) return true;
  return protections.some((protection) => named.includes(protection.id) && protectionMatches(protection.name, branch));
}

/** The rules a request answers to: its own when the project lets requests override them, else the project's for its target. */
export function applicableRules(db: Db, row: MergeRequestRow): { rules: ApprovalRuleRow[]; overwritten: boolean } {
  const settings = approvalSettings(db, row.project_id);
  if (!settings.disable_overriding_approvers_per_merge_request) {
    const own = mergeRequestRules(db, row.id);
    if (own.length) return { rules: own, overwritten: true };
  }
  const protections = protectionsOf(db, row.project_id);
  return { rules: projectRules(db, row.project_id).filter((rule) => ruleAppliesTo(rule, row.target_branch, protections)), overwritten: false };
}

function usersById(db: Db, ids: readonly number[]): UserRow[] {
  if (!ids.length) return [];
  return db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(ids)) as UserRow[];
}

function groupsById(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db.prepare('SELECT * FROM namespaces WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(ids)) as Array<Record<string, unknown> & { id: number }>;
}

function groupBasic(sandbox: Sandbox, group: Record<string, unknown>) {
  return {
    id: group.id,
    web_url: `${sandbox.config.externalUrl}/groups/${group.full_path ?? group.path}`,
    name: group.name,
    path: group.path,
    description: group.description ?? '',
    visibility: group.visibility,
    full_name: group.full_name ?? group.name,
    full_path: group.full_path ?? group.path,
    parent_id: group.parent_id ?? null,
  };
}

/** A rule as the project rules API shows it. */
export function approvalRuleEntity(sandbox: Sandbox, rule: ApprovalRuleRow, now: Date) {
  const { db } = sandbox;
  const eligible = eligibleApproverIds(db, rule, now);
  const protections = protectionsOf(db, rule.project_id);
  const named = idsOf(rule.protected_branch_ids);
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    report_type: null,
    eligible_approvers: eligible === 'anyone' ? [] : usersById(db, eligible).map((user) => userBasic(sandbox, user)),
    approvals_required: rule.approvals_required,
    users: usersById(db, idsOf(rule.user_ids)).map((user) => userBasic(sandbox, user)),
    groups: groupsById(db, idsOf(rule.group_ids)).map((group) => groupBasic(sandbox, group)),
    contains_hidden_groups: false,
    protected_branches: protections.filter((protection) => named.includes(protection.id)).map((protection) => protectedBranchEntity(db, protection)),
    applies_to_all_protected_branches: Boolean(rule.applies_to_all_protected_branches),
  };
}

// -- approvals of a request

export function approverIds(db: Db, mergeRequestId: number): number[] {
  return db.prepare('SELECT user_id FROM merge_request_approvals WHERE merge_request_id = ? ORDER BY created_at, user_id').pluck().all(mergeRequestId) as number[];
}

export interface RuleState {
  rule: ApprovalRuleRow;
  eligible: number[] | 'anyone';
  approvedBy: number[];
  approved: boolean;
}

export interface ApprovalState {
  rules: RuleState[];
  overwritten: boolean;
  approvedBy: number[];
  required: number;
  left: number;
  rulesLeft: RuleState[];
}

/** Each rule with who approved for it, and what is still missing. */
export function approvalStateOf(db: Db, row: MergeRequestRow, now: Date): ApprovalState {
  const { rules, overwritten } = applicableRules(db, row);
  const approvedBy = approverIds(db, row.id);
  const states = rules.map((rule): RuleState => {
    const eligible = eligibleApproverIds(db, rule, now);
    const forRule = eligible === 'anyone' ? approvedBy : approvedBy.filter((id) => eligible.includes(id));
    return { rule, eligible, approvedBy: forRule, approved: forRule.length >= rule.approvals_required };
  });
  const required = states.reduce((sum, state) => sum + state.rule.approvals_required, 0);
  const left = states.reduce((sum, state) => sum + Math.max(0, state.rule.approvals_required - state.approvedBy.length), 0);
  return { rules: states, overwritten, approvedBy, required, left, rulesLeft: states.filter((state) => !state.approved) };
}

/** How many approvals each request still needs, for a page of requests (detailed_merge_status in lists). */
export function approvalsLeftOf(db: Db, rows: readonly MergeRequestRow[], now: Date): Map<number, number> {
  const left = new Map<number, number>();
  const withRules = new Set(db.prepare('SELECT DISTINCT project_id FROM approval_rules WHERE project_id IN (SELECT value FROM json_each(?))')
    .pluck().all(JSON.stringify([...new Set(rows.map((row) => row.project_id))])) as number[]);
  for (const row of rows) left.set(row.id, row.state === 'opened' && withRules.has(row.project_id) ? approvalStateOf(db, row, now).left : 0);
  return left;
}

/**
 * Why the caller may not approve, or null when they may: already approved, the author without
 * author approval, a committer when committers may not, below Developer and no rule names them.
 */
export function approvalRefusal(
  db: Db, actor: Actor, row: MergeRequestRow, state: ApprovalState, role: number, committerEmails: ReadonlySet<string>,
): string | null {
  const user = actor.user;
  if (!user) return 'not signed in';
  if (row.state !== 'opened') return 'the merge request is not open';
  if (state.approvedBy.includes(user.id)) return 'already approved';
  const settings = approvalSettings(db, row.project_id);
  if (row.author_id === user.id && !settings.merge_requests_author_approval) return 'authors may not approve their merge requests';
  if (settings.merge_requests_disable_committers_approval && committerEmails.has(user.email.toLowerCase())) return 'committers may not approve';
  const named = state.rules.some((rule) => rule.eligible !== 'anyone' && rule.eligible.includes(user.id));
  if (!named && role < AccessLevel.DEVELOPER) return 'needs the Developer role or a rule naming them';
  return null;
}

/** The approval result of spec 2, section 2.5, with the platform's further fields. */
export function approvalsEntity(sandbox: Sandbox, row: MergeRequestRow, state: ApprovalState, caller: { userId: number | null; canApprove: boolean }) {
  const users = new Map(usersById(sandbox.db, state.approvedBy).map((user) => [user.id, user]));
  const settings = approvalSettings(sandbox.db, row.project_id);
  return {
    ...mergeRequestHead(row),
    merge_status: row.merge_status,
    approved: state.left === 0,
    approvals_required: state.required,
    approvals_left: state.left,
    require_password_to_approve: Boolean(settings.require_reauthentication_to_approve),
    approved_by: state.approvedBy.filter((id) => users.has(id)).map((id) => ({ user: userBasic(sandbox, users.get(id)!) })),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: caller.userId !== null && state.approvedBy.includes(caller.userId),
    user_can_approve: caller.canApprove,
    approval_rules_left: state.rulesLeft.map((rule) => ({ id: rule.rule.id, name: rule.rule.name, rule_type: rule.rule.rule_type })),
    has_approval_rules: state.rules.length > 0,
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approval_rules: [],
  };
}

/** Approval state: the rules with who approved each (GET .../approval_state). */
export function approvalStateEntity(sandbox: Sandbox, state: ApprovalState, now: Date) {
  const users = new Map(usersById(sandbox.db, state.approvedBy).map((user) => [user.id, user]));
  return {
    approval_rules_overwritten: state.overwritten,
    rules: state.rules.map((ruleState) => ({
      ...approvalRuleEntity(sandbox, ruleState.rule, now),
      approved_by: ruleState.approvedBy.filter((id) => users.has(id)).map((id) => userBasic(sandbox, users.get(id)!)),
      source_rule: ruleState.rule.source_rule_id === null ? null : { approvals_required: ruleState.rule.approvals_required },
      approved: ruleState.approved,
      overridden: state.overwritten,
      code_owner: false,
      section: null,
    })),
  };
}

/** A push to the source branch clears the approvals of the project's open requests from it (reset_approvals_on_push). */
export function resetApprovalsOnPush(db: Db, projectId: number, branch: string): void {
  if (!approvalSettings(db, projectId).reset_approvals_on_push) return;
  db.prepare(
    `DELETE FROM merge_request_approvals WHERE merge_request_id IN
       (SELECT id FROM merge_requests WHERE project_id = ? AND source_branch = ? AND state = 'opened')`,
  ).run(projectId, branch);
  db.prepare(
    `UPDATE merge_request_reviewers SET state = 'unreviewed' WHERE state = 'approved' AND merge_request_id IN
       (SELECT id FROM merge_requests WHERE project_id = ? AND source_branch = ? AND state = 'opened')`,
  ).run(projectId, branch);
}

// -- passwords (users created with one can re-authenticate to approve)

// Node's default scrypt cost: that of a digest written before the cost was kept in it
// (`scrypt$salt$hash`), and the most that scrypt's default memory limit allows
const NODE_SCRYPT_COST = 16_384;

export function passwordDigest(password: string, cost: number): string {
  const salt = crypto.randomBytes(16);
  return `scrypt$${cost}$${salt.toString('hex')}$${crypto.scryptSync(password, salt, 32, { N: cost }).toString('hex')}`;
}

export function passwordMatches(digest: string | null, password: string): boolean {
  if (!digest) return false;
  const parts = digest.split('$');
  const [kind, costText, salt, hash] = parts.length === 3 ? [parts[0], String(NODE_SCRYPT_COST), parts[1], parts[2]] : parts;
  const cost = Number(costText);
  // scrypt takes a power of two
  if (kind !== 'scrypt' || !salt || !hash || !Number.isInteger(cost) || cost < 2 || cost > NODE_SCRYPT_COST || (cost & (cost - 1)) !== 0) return false;
  const computed = crypto.scryptSync(password, Buffer.from(salt, 'hex'), 32, { N: cost });
  const stored = Buffer.from(hash, 'hex');
  return stored.length === computed.length && crypto.timingSafeEqual(stored, computed);
}
