import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';
import { protectedBranchSchema } from './branches.ts';
import { mergeRequestsQueries } from './merge-requests.ts';
import { userSummariesSchema, userSummarySchema } from './users.ts';

/** A project's approval configuration (spec 2, 2.4). */
export const approvalSettingsSchema = loose({
  approvals_before_merge: z.nullish(z.number()),
  reset_approvals_on_push: flag,
  selective_code_owner_removals: flag,
  disable_overriding_approvers_per_merge_request: flag,
  merge_requests_author_approval: flag,
  merge_requests_disable_committers_approval: flag,
  require_password_to_approve: flag,
  require_reauthentication_to_approve: flag,
});
export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;
export type ApprovalSettingsChanges = Partial<Omit<ApprovalSettings, 'approvals_before_merge' | 'require_password_to_approve'>>;

export const approvalRuleSchema = loose({
  id: z.number(),
  name: z.string(),
  rule_type: z.string(),
  approvals_required: z.number(),
  eligible_approvers: userSummariesSchema,
  users: userSummariesSchema,
  groups: z.pipe(z.nullish(z.array(loose({ id: z.number(), name: z.string(), full_path: z.nullish(z.string()) }))), z.transform((groups) => groups ?? [])),
  protected_branches: z.pipe(z.nullish(z.array(protectedBranchSchema)), z.transform((branches) => branches ?? [])),
  applies_to_all_protected_branches: flag,
});
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** The approval result of a request (spec 2, 2.5) with what the caller may do. */
export const approvalsSchema = loose({
  iid: z.number(),
  approved: flag,
  approvals_required: z.number(),
  approvals_left: z.number(),
  approved_by: z.array(loose({ user: userSummarySchema })),
  user_has_approved: flag,
  user_can_approve: flag,
  require_password_to_approve: flag,
  approval_rules_left: z.pipe(z.nullish(z.array(loose({ id: z.number(), name: z.string() }))), z.transform((rules) => rules ?? [])),
  has_approval_rules: flag,
});
export type Approvals = z.infer<typeof approvalsSchema>;

/** Each rule with who approved for it. */
export const approvalStateSchema = loose({
  approval_rules_overwritten: flag,
  rules: z.array(z.extend(approvalRuleSchema, { approved_by: z.array(userSummarySchema), approved: flag })),
});
export type ApprovalState = z.infer<typeof approvalStateSchema>;

export interface ApprovalRuleValues {
  name: string;
  approvals_required: number;
  rule_type?: 'any_approver' | 'regular';
  user_ids?: readonly number[];
  group_ids?: readonly number[];
  protected_branch_ids?: readonly number[];
  applies_to_all_protected_branches?: boolean;
}

/** Rules of a project, or of one request (where the project lets requests override them). */
export type RuleOwner = { projectId: number } | { projectId: number; iid: number };

const rulesPath = (owner: RuleOwner) => ('iid' in owner ? `/projects/${owner.projectId}/merge_requests/${owner.iid}/approval_rules` : `/projects/${owner.projectId}/approval_rules`);
const requestPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

/** The caller's addresses, to tell whether they committed to a request (`merge_requests_disable_committers_approval`). */
export const approvalCallerSchema = loose({ id: z.number(), email: z.nullish(z.string()), commit_email: z.nullish(z.string()), public_email: z.nullish(z.string()) });
export type ApprovalCaller = z.infer<typeof approvalCallerSchema>;

export const approvalsQueries = {
  all: () => ['approvals'] as const,
  settings: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...approvalsQueries.all(), { project: projectId }, 'settings'] as const,
      queryFn: ({ signal }) => request(connection, `/projects/${projectId}/approvals`, approvalSettingsSchema, { signal }),
    }),
  rules: (connection: Connection, owner: RuleOwner) =>
    queryOptions({
      queryKey: [...approvalsQueries.all(), owner, 'rules'] as const,
      queryFn: ({ signal }) => requestPage(connection, rulesPath(owner), approvalRuleSchema, { query: { page: 1, per_page: 100 }, signal }),
    }),
  /** GET /user: who is approving, with their e-mail addresses. */
  caller: (connection: Connection) =>
    queryOptions({
      queryKey: [...approvalsQueries.all(), 'caller'] as const,
      queryFn: ({ signal }) => request(connection, '/user', approvalCallerSchema, { signal }),
      staleTime: 5 * 60_000,
    }),
  /** Kept under the request's key, so a change to the request refreshes them too. */
  approvals: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'approvals'] as const,
      queryFn: ({ signal }) => request(connection, `${requestPath(projectId, iid)}/approvals`, approvalsSchema, { signal }),
    }),
  state: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'approval-state'] as const,
      queryFn: ({ signal }) => request(connection, `${requestPath(projectId, iid)}/approval_state`, approvalStateSchema, { signal }),
    }),
};

export function updateApprovalSettings(connection: Connection, { projectId, changes }: { projectId: number; changes: ApprovalSettingsChanges }): Promise<ApprovalSettings> {
  // false turns a switch off: it is sent, not dropped as an empty filter would be
  return request(connection, `/projects/${projectId}/approvals`, approvalSettingsSchema, { method: 'POST', body: changes });
}

export function createApprovalRule(connection: Connection, { owner, values }: { owner: RuleOwner; values: ApprovalRuleValues }): Promise<ApprovalRule> {
  return request(connection, rulesPath(owner), approvalRuleSchema, { method: 'POST', body: values });
}

export function updateApprovalRule(connection: Connection, { owner, ruleId, values }: { owner: RuleOwner; ruleId: number; values: Partial<ApprovalRuleValues> }): Promise<ApprovalRule> {
  return request(connection, `${rulesPath(owner)}/${ruleId}`, approvalRuleSchema, { method: 'PUT', body: values });
}

export async function deleteApprovalRule(connection: Connection, { owner, ruleId }: { owner: RuleOwner; ruleId: number }): Promise<void> {
  await send(connection, `${rulesPath(owner)}/${ruleId}`, { method: 'DELETE' });
}

/**
 * Approves the head the reviewer was looking at (`sha`): newer commits answer 409. The password,
 * when the project asks for it, goes in this one request body and is kept nowhere.
 */
export function approveMergeRequest(
  connection: Connection,
  { projectId, iid, sha, password }: { projectId: number; iid: number; sha: string; password?: string },
): Promise<Approvals> {
  return request(connection, `${requestPath(projectId, iid)}/approve`, approvalsSchema, { method: 'POST', body: withoutEmpty({ sha, approval_password: password }) });
}

export function unapproveMergeRequest(connection: Connection, { projectId, iid }: { projectId: number; iid: number }): Promise<Approvals> {
  return request(connection, `${requestPath(projectId, iid)}/unapprove`, approvalsSchema, { method: 'POST' });
}

/** For bots of project and group tokens only; others get 401. */
export async function resetApprovals(connection: Connection, { projectId, iid }: { projectId: number; iid: number }): Promise<void> {
  await send(connection, `${requestPath(projectId, iid)}/reset_approvals`, { method: 'PUT' });
}
