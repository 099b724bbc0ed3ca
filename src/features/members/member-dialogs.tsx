import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  addMemberFormSchema, memberFormSchema, roleName,
  type AddMemberInput, type AddMemberValues, type Member, type MemberFormInput, type MemberFormValues,
} from '../../api/members.ts';
import type { Scope } from '../../api/keys.ts';
import { useConnection } from '../../api/react.ts';
import { usersQueries } from '../../api/users.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Avatar } from '../../components/avatar.tsx';
import { useNotify } from '../../components/toast.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { RoleSelect } from '../../components/role-select.tsx';
import { useAddMember, useRemoveMember, useUpdateMember } from './mutations.ts';
import { FormError, FormActions } from '../../components/form-footer.tsx';
import { BreakableText } from '../../components/breakable-text.tsx';
import { PickerStatus } from '../../components/picker-status.tsx';

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** Picks one user by search; a radio group, so it works by keyboard and reads well. */
function UserPicker({ value, onChange, error }: { value: number | undefined; onChange: (id: number, label: string) => void; error?: string }) {
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const results = useQuery({ ...usersQueries.search(connection, search), enabled: search.trim().length > 0, placeholderData: keepPreviousData });
  const name = useId();
  const errorId = useId();
  return (
    <fieldset className="field user-picker">
      <legend className="field__label">User</legend>
      <SearchInput label="Search users by name or username" value={search} onSearch={setSearch} placeholder="Name or username" delayMs={200} />
      <PickerStatus error={results.error} empty={!search.trim() ? 'Type a name or username to find someone.' : results.data?.items.length === 0 ? `No active user matches “${search}”.` : null} />
      <div className="user-picker__results" role="radiogroup" aria-label="Matching users" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
        {results.data?.items.map((user) => (
          <label key={user.id} className="user-picker__option">
            <input type="radio" name={name} checked={value === user.id} onChange={() => onChange(user.id, user.name)} />
            <Avatar url={user.avatar_url} name={user.name} size={24} />
            <span>
              {user.name} <span className="muted">@<BreakableText text={user.username} /></span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Mounted while open: closing unmounts it, and its form with it. */
interface AddMemberDialogProps {
  onClose: () => void;
  scope: Scope;
  /** What the member is added to, for the title: "Add a member to Acme Engineering". */
  sourceName: string;
  roles: readonly number[];
}

export function AddMemberDialog({ onClose, scope, sourceName, roles }: AddMemberDialogProps) {
  const notify = useNotify();
  const add = useAddMember();
  const [chosenName, setChosenName] = useState('');
  const form = useForm<AddMemberInput, unknown, AddMemberValues>({
    resolver: zodResolver(addMemberFormSchema),
    defaultValues: { user_id: undefined as unknown as number, access_level: 30, expires_at: '' },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    add.mutate(
      { scope, values },
      {
        onSuccess: (member) => {
          notify(`Added ${member.name} as ${roleName(member.access_level)}.`);
          onClose();
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, ['access_level', 'expires_at', 'user_id'])) setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => (!next && !add.isPending ? onClose() : undefined)} title={`Add a member to ${sourceName}`}>
      <form className="form" noValidate onSubmit={submit}>
        <UserPicker
          value={form.watch('user_id')}
          onChange={(id, label) => {
            form.setValue('user_id', id, { shouldValidate: true });
            setChosenName(label);
          }}
          error={errors.user_id?.message}
        />
        <Field label="Role" error={errors.access_level?.message}>
          <RoleSelect roles={roles} {...form.register('access_level')} />
        </Field>
        <Field label="Access expires on" error={errors.expires_at?.message} hint="Optional. Leave empty for no expiry.">
          <input className="input" type="date" min={tomorrow()} {...form.register('expires_at')} />
        </Field>
        <FormError message={formError} />
        <FormActions write={add} onCancel={onClose} submitLabel={chosenName ? `Add ${chosenName}` : 'Add member'} pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}

interface EditMemberDialogProps {
  member: Member;
  onClose: () => void;
  scope: Scope;
  roles: readonly number[];
}

export function EditMemberDialog({ member, onClose, scope, roles }: EditMemberDialogProps) {
  const notify = useNotify();
  const update = useUpdateMember();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<MemberFormInput, unknown, MemberFormValues>({
    resolver: zodResolver(memberFormSchema),
    // server data is the form's starting point only
    defaultValues: { access_level: member.access_level, expires_at: member.expires_at ?? '' },
  });
  const offered = roles.includes(member.access_level) ? roles : [...roles, member.access_level].sort((a, b) => a - b);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    update.mutate(
      { scope, userId: member.id, values },
      {
        onSuccess: (updated) => {
          notify(`${updated.name} is now ${roleName(updated.access_level)}.`);
          onClose();
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, ['access_level', 'expires_at'])) setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => (!next && !update.isPending ? onClose() : undefined)} title={`Edit ${member.name}'s membership`}>
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Role" error={errors.access_level?.message}>
          <RoleSelect roles={offered} {...form.register('access_level')} />
        </Field>
        <Field label="Access expires on" error={errors.expires_at?.message} hint="Leave empty for no expiry.">
          <input className="input" type="date" min={tomorrow()} {...form.register('expires_at')} />
        </Field>
        <FormError message={formError} />
        <FormActions write={update} onCancel={onClose} submitLabel="Save" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

interface RemoveMemberDialogProps {
  member: Member;
  onClose: () => void;
  scope: Scope;
  sourceName: string;
  isGroup: boolean;
}

export function RemoveMemberDialog({ member, onClose, scope, sourceName, isGroup }: RemoveMemberDialogProps) {
  const notify = useNotify();
  const remove = useRemoveMember();
  const [alsoBelow, setAlsoBelow] = useState(true);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Remove ${member.name}?`}
      description={
        <>
          {member.name} (@{member.username}) loses the {roleName(member.access_level)} role in {sourceName}. Access they have through a parent group or an
          invited group stays.
        </>
      }
      confirmLabel="Remove member"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { scope, userId: member.id, skipSubresources: isGroup ? !alsoBelow : undefined },
          {
            onSuccess: () => {
              notify(`Removed ${member.name} from ${sourceName}.`);
              onClose();
            },
          },
        )
      }
    >
      {isGroup ? (
        <label className="checkbox">
          <input type="checkbox" checked={alsoBelow} onChange={(event) => setAlsoBelow(event.target.checked)} /> Also remove their direct memberships in this group's subgroups and
          projects
        </label>
      ) : null}
    </ConfirmDialog>
  );
}

