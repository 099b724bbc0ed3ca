import { describe, expect, it } from 'vitest';
import { ruleFormSchema } from './rule-form.ts';
import { settingsFormSchema, settingsFormValues } from './settings-form.ts';

const off = {
  merge_requests_author_approval: false,
  merge_requests_disable_committers_approval: false,
  disable_overriding_approvers_per_merge_request: false,
  require_reauthentication_to_approve: false,
  reset_approvals_on_push: false,
  selective_code_owner_removals: false,
};

describe('the approval settings form', () => {
  it('refuses selective Code Owner removals while all approvals are reset on push, as the platform does', () => {
    const refused = settingsFormSchema.safeParse({ ...off, reset_approvals_on_push: true, selective_code_owner_removals: true });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['selective_code_owner_removals']);
    expect(refused.error?.issues[0]?.message).toMatch(/only be enabled when reset_approvals_on_push is disabled/);
    expect(settingsFormSchema.safeParse({ ...off, selective_code_owner_removals: true }).success).toBe(true);
    expect(settingsFormSchema.safeParse({ ...off, reset_approvals_on_push: true }).success).toBe(true);
  });

  it('reads re-authentication under either name the platform answers with', () => {
    expect(settingsFormValues({ ...off, require_password_to_approve: true }).require_reauthentication_to_approve).toBe(true);
    expect(settingsFormValues({ ...off, require_password_to_approve: false }).require_reauthentication_to_approve).toBe(false);
  });
});

describe('the approval rule form', () => {
  it('needs a name and a whole number of approvals from 0', () => {
    expect(ruleFormSchema.safeParse({ name: '  ', approvals_required: '1', user_ids: [], group_ids: [], protected_branch_ids: [] }).success).toBe(false);
    expect(ruleFormSchema.safeParse({ name: 'QA', approvals_required: '-1', user_ids: [], group_ids: [], protected_branch_ids: [] }).success).toBe(false);
    expect(ruleFormSchema.safeParse({ name: 'QA', approvals_required: '1.5', user_ids: [], group_ids: [], protected_branch_ids: [] }).success).toBe(false);
    expect(ruleFormSchema.parse({ name: ' QA ', approvals_required: '2', user_ids: [4], group_ids: [], protected_branch_ids: [9] })).toEqual({ name: 'QA', approvals_required: 2, user_ids: [4], group_ids: [], protected_branch_ids: [9] });
  });
});
