import * as z from 'zod/mini';
import type { ApprovalRule, ApprovalRuleValues } from '../../api/approvals.ts';

export const ruleFormSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the rule a name'), z.maxLength(255, 'At most 255 characters')),
  approvals_required: z.coerce.number({ error: 'Enter a whole number' }).check(z.int('Enter a whole number'), z.gte(0, 'Enter 0 or more'), z.lte(100, 'Enter at most 100')),
  user_ids: z.array(z.number()),
  group_ids: z.array(z.number()),
  /** Empty: the rule targets every branch. */
  protected_branch_ids: z.array(z.number()),
});
export type RuleFormInput = z.input<typeof ruleFormSchema>;
export type RuleFormValues = z.output<typeof ruleFormSchema>;

export function ruleFormDefaults(rule: ApprovalRule | null): RuleFormInput {
  return rule
    ? { name: rule.name, approvals_required: rule.approvals_required, user_ids: rule.users.map((user) => user.id), group_ids: rule.groups.map((group) => group.id), protected_branch_ids: rule.protected_branches.map((branch) => branch.id) }
    : { name: '', approvals_required: 1, user_ids: [], group_ids: [], protected_branch_ids: [] };
}

export function ruleValues(values: RuleFormValues): ApprovalRuleValues {
  return { name: values.name, approvals_required: values.approvals_required, user_ids: values.user_ids, group_ids: values.group_ids, protected_branch_ids: values.protected_branch_ids };
}
