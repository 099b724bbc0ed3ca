import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApprovalRule } from '../../api/approvals.ts';
import { branchesQueries } from '../../api/branches.ts';
import { groupsQueries } from '../../api/groups.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { usersQueries } from '../../api/users.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { placeServerErrors } from '../../components/form-errors.ts';
import { FormActions, FormError } from '../../components/form-footer.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useCreateApprovalRule, useDeleteApprovalRule, useUpdateApprovalRule } from './mutations.ts';
import { ruleFormDefaults, ruleFormSchema, ruleValues, type RuleFormInput, type RuleFormValues } from './rule-form.ts';
import { PickerStatus } from '../../components/picker-status.tsx';

interface Option {
  id: number;
  label: string;
  detail: string;
}

/**
 * Chooses several users or groups by search: the chosen ones stay listed (checked) above the
 * matches, so a search does not hide what the rule already has.
 */
function MultiPicker({ legend, searchLabel, chosen, onChange, useMatches }: {
  legend: string;
  searchLabel: string;
  chosen: readonly Option[];
  onChange: (next: Option[]) => void;
  useMatches: (search: string) => { options: Option[] | undefined; error: Error | null };
}) {
  const [search, setSearch] = useState('');
  const matches = useMatches(search);
  const chosenIds = new Set(chosen.map((option) => option.id));
  const offered = [...chosen, ...(matches.options ?? []).filter((option) => !chosenIds.has(option.id))];
  const toggle = (option: Option, on: boolean) => onChange(on ? [...chosen, option] : chosen.filter((item) => item.id !== option.id));
  return (
    <fieldset className="field user-picker">
      <legend className="field__label">{legend}</legend>
      <SearchInput label={searchLabel} value={search} onSearch={setSearch} placeholder="Name" delayMs={200} />
      <PickerStatus error={matches.error} empty={!search.trim() ? (offered.length ? null : 'Type a name to find one.') : matches.options?.length === 0 ? `Nothing matches “${search}”.` : null} />
      <div className="user-picker__results">
        {offered.map((option) => (
          <label key={option.id} className="user-picker__option">
            <input type="checkbox" checked={chosenIds.has(option.id)} onChange={(event) => toggle(option, event.target.checked)} />
            <span>
              {option.label} <span className="muted"><BreakableText text={option.detail} /></span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function useUserMatches(search: string) {
  const connection = useConnection();
  const results = useQuery({ ...usersQueries.search(connection, search), enabled: search.trim().length > 0, placeholderData: keepPreviousData });
  return { options: results.data?.items.map((user) => ({ id: user.id, label: user.name, detail: `@${user.username}` })), error: results.error };
}

function useGroupMatches(search: string) {
  const connection = useConnection();
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const results = useQuery({ ...groupsQueries.search(connection, search, isAdmin), enabled: search.trim().length > 0, placeholderData: keepPreviousData });
  return { options: results.data?.items.map((group) => ({ id: group.id, label: group.name, detail: group.full_path })), error: results.error };
}

/** The rule's target branches among the project's protected ones; none chosen means every branch. */
function BranchChoice({ projectId, chosen, onChange }: { projectId: number; chosen: readonly number[]; onChange: (next: number[]) => void }) {
  const connection = useConnection();
  const protections = useQuery(branchesQueries.protections(connection, projectId));
  return (
    <fieldset className="field">
      <legend className="field__label">Target branches</legend>
      <p className="field__hint">Leave all unchecked for the rule to apply to every branch.</p>
      {protections.error ? <p role="alert">{errorText(protections.error)}</p> : null}
      {protections.data?.length === 0 ? <p className="muted">This project has no protected branches.</p> : null}
      <div className="scope-list">
        {protections.data?.map((branch) => (
          <label key={branch.id} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(branch.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, branch.id] : chosen.filter((id) => id !== branch.id))}
            />{' '}
            {branch.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const usersOf = (rule: ApprovalRule | null): Option[] => rule?.users.map((user) => ({ id: user.id, label: user.name, detail: `@${user.username}` })) ?? [];
const groupsOf = (rule: ApprovalRule | null): Option[] => rule?.groups.map((group) => ({ id: group.id, label: group.name, detail: group.full_path ?? '' })) ?? [];

interface RuleDialogProps {
  projectId: number;
  /** The rule to edit; null to create one. */
  rule: ApprovalRule | null;
  onClose: () => void;
}

/** Creates or edits a rule of the project: its name, how many approvals, and who may give them. */
export function RuleDialog({ projectId, rule, onClose }: RuleDialogProps) {
  const notify = useNotify();
  const create = useCreateApprovalRule();
  const update = useUpdateApprovalRule();
  const write = rule ? update : create;
  const [formError, setFormError] = useState<string | null>(null);
  const [users, setUsers] = useState<Option[]>(usersOf(rule));
  const [groups, setGroups] = useState<Option[]>(groupsOf(rule));
  const form = useForm<RuleFormInput, unknown, RuleFormValues>({ resolver: zodResolver(ruleFormSchema), defaultValues: ruleFormDefaults(rule) });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    const onError = (error: Error) => setFormError(placeServerErrors(form, error, ['name', 'approvals_required']));
    const onSuccess = (saved: ApprovalRule) => {
      notify(rule ? `Saved the rule ${saved.name}.` : `Created the rule ${saved.name}.`);
      onClose();
    };
    if (rule) update.mutate({ owner: { projectId }, ruleId: rule.id, values: ruleValues(values) }, { onSuccess, onError });
    else create.mutate({ owner: { projectId }, values: ruleValues(values) }, { onSuccess, onError });
  });
  const { errors } = form.formState;
  const choose = (field: 'user_ids' | 'group_ids', set: (next: Option[]) => void) => (next: Option[]) => {
    set(next);
    form.setValue(field, next.map((option) => option.id), { shouldDirty: true });
  };
  return (
    <Dialog open onOpenChange={(next) => (!next && !write.isPending ? onClose() : undefined)} title={rule ? `Edit the rule ${rule.name}` : 'Add an approval rule'}>
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Rule name" error={errors.name?.message}>
          <input className="input" autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Approvals required" error={errors.approvals_required?.message} hint="How many of the eligible approvers must approve; 0 makes the rule optional.">
          <input className="input" type="number" min={0} max={100} step={1} inputMode="numeric" {...form.register('approvals_required')} />
        </Field>
        <MultiPicker legend="Approvers (users)" searchLabel="Search users by name or username" chosen={users} onChange={choose('user_ids', setUsers)} useMatches={useUserMatches} />
        <MultiPicker legend="Approvers (groups)" searchLabel="Search groups by name" chosen={groups} onChange={choose('group_ids', setGroups)} useMatches={useGroupMatches} />
        <BranchChoice
          projectId={projectId}
          chosen={form.watch('protected_branch_ids')}
          onChange={(next) => form.setValue('protected_branch_ids', next, { shouldDirty: true })}
        />
        <FormError message={formError} />
        <FormActions write={write} onCancel={onClose} submitLabel={rule ? 'Save rule' : 'Add rule'} pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

export function DeleteRuleDialog({ projectId, rule, onClose }: { projectId: number; rule: ApprovalRule; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeleteApprovalRule();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete the rule ${rule.name}?`}
      description={<>The project no longer asks for the {rule.approvals_required} approvals of this rule.</>}
      confirmLabel="Delete rule"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { owner: { projectId }, ruleId: rule.id },
          {
            onSuccess: () => {
              notify(`Deleted the rule ${rule.name}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}
