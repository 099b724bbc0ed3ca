import * as z from 'zod/mini';
import type { ApprovalSettings } from '../../api/approvals.ts';

/** The switches the console changes (require_password_to_approve is the older name of the re-authentication one). */
type Switch = keyof SettingsFormValues;

/** The switches of spec 2, 2.4, each with what it does, in the platform's order. */
export const SETTING_SWITCHES: ReadonlyArray<{ name: Switch; label: string; description: string }> = [
  {
    name: 'merge_requests_author_approval',
    label: 'Allow the author to approve',
    description: 'The person who opened a merge request may approve it themselves.',
  },
  {
    name: 'merge_requests_disable_committers_approval',
    label: 'Prevent approvals by committers',
    description: 'People who added commits to a merge request cannot approve it.',
  },
  {
    name: 'disable_overriding_approvers_per_merge_request',
    label: 'Prevent editing approval rules in merge requests',
    description: 'Merge requests keep the project’s rules; their authors cannot change who must approve.',
  },
  {
    name: 'require_reauthentication_to_approve',
    label: 'Require user re-authentication to approve',
    description: 'Approvers enter their password again when they approve.',
  },
  {
    name: 'reset_approvals_on_push',
    label: 'Remove all approvals when commits are added',
    description: 'A push to the source branch clears every approval the merge request had.',
  },
  {
    name: 'selective_code_owner_removals',
    label: 'Remove approvals by Code Owners if their files changed',
    description: 'A push clears only the approvals of Code Owners whose files it changed. Needs the switch above off.',
  },
];

export const SELECTIVE_NEEDS_NO_RESET = 'can only be enabled when reset_approvals_on_push is disabled';

export const settingsFormSchema = z
  .object({
    merge_requests_author_approval: z.boolean(),
    merge_requests_disable_committers_approval: z.boolean(),
    disable_overriding_approvers_per_merge_request: z.boolean(),
    require_reauthentication_to_approve: z.boolean(),
    reset_approvals_on_push: z.boolean(),
    selective_code_owner_removals: z.boolean(),
  })
  // the platform's own rule: both at once answer 400
  .check(
    z.refine((values) => !(values.selective_code_owner_removals && values.reset_approvals_on_push), {
      path: ['selective_code_owner_removals'],
      message: `Removing only Code Owners’ approvals ${SELECTIVE_NEEDS_NO_RESET}: turn off “Remove all approvals when commits are added” first.`,
    }),
  );
export type SettingsFormValues = z.infer<typeof settingsFormSchema>;

export function settingsFormValues(settings: ApprovalSettings): SettingsFormValues {
  return {
    merge_requests_author_approval: settings.merge_requests_author_approval,
    merge_requests_disable_committers_approval: settings.merge_requests_disable_committers_approval,
    disable_overriding_approvers_per_merge_request: settings.disable_overriding_approvers_per_merge_request,
    require_reauthentication_to_approve: settings.require_reauthentication_to_approve || settings.require_password_to_approve,
    reset_approvals_on_push: settings.reset_approvals_on_push,
    selective_code_owner_removals: settings.selective_code_owner_removals,
  };
}
