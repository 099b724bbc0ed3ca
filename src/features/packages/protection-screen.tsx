import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import {
  PROTECTION_DELETE_LEVELS, PROTECTION_PACKAGE_TYPES, PROTECTION_PUSH_LEVELS, packagesQueries, protectionRuleFormSchema, protectionRuleInput, type ProtectionRule, type ProtectionRuleFormValues,
} from '../../api/packages.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { placeServerErrors } from '../../components/form-errors.ts';
import { FormError } from '../../components/form-footer.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { rulesRefusal } from './protection-access.ts';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { useCreateProtectionRule } from './mutations.ts';
import { packageTypeLabel } from './package-bits.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

const loadDialogs = chunk(() => import('./protection-dialogs.tsx'));
const DeleteRuleDialog = lazyPart(loadDialogs, (module) => module.DeleteRuleDialog);

const LEVEL_LABELS: Record<string, string> = { maintainer: 'Maintainer', owner: 'Owner', admin: 'Administrator' };
const levelText = (level: string | null | undefined) => (level ? (LEVEL_LABELS[level] ?? level) : 'No minimum');

/** Settings, Packages and registries: the project's package protection rules, listed, added and deleted. */
export function ProtectionScreen({ projectId, projectName }: { projectId: number; projectName?: string }) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refused = rulesRefusal(caller);
  return (
    <section className="screen" aria-labelledby="protection-heading">
      <header className="screen__header">
        <h1 id="protection-heading">{projectName ? `Packages and registries of ${projectName}` : 'Packages and registries'}</h1>
      </header>
      <p className="field__hint">
        A protected package can be pushed and deleted only by the roles its rule names; by default Developers push and Maintainers delete. A name pattern may use * as a wildcard.
      </p>
      <RoleUnread failure={failure} withheld="the rules are not shown" />
      {pending ? null : refused ? (
        <p className="notice" role="note">
          {refused}
        </p>
      ) : (
        <>
          <RuleList projectId={projectId} />
          <AddRuleForm projectId={projectId} />
        </>
      )}
    </section>
  );
}

function RuleList({ projectId }: { projectId: number }) {
  const connection = useConnection();
  const rules = useQuery(packagesQueries.rules(connection, projectId));
  const [deleting, setDeleting] = useState<ProtectionRule | null>(null);
  usePreloadWhenIdle(loadDialogs, Boolean(rules.data?.items.length));
  const columns: ColumnDef<ProtectionRule>[] = [
    { id: 'pattern', header: 'Name pattern', cell: ({ row: { original: rule } }) => <code className="breakable">{rule.package_name_pattern}</code> },
    { id: 'type', header: 'Type', cell: ({ row: { original: rule } }) => packageTypeLabel(rule.package_type) },
    { id: 'push', header: 'Minimum role to push', cell: ({ row: { original: rule } }) => levelText(rule.minimum_access_level_for_push) },
    { id: 'delete', header: 'Minimum role to delete', cell: ({ row: { original: rule } }) => levelText(rule.minimum_access_level_for_delete) },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: rule } }) => (
        <button type="button" className="button button--danger-quiet" aria-label={`Delete rule ${rule.package_name_pattern}`} onClick={() => setDeleting(rule)}>
          Delete
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="rules-heading">
      <h2 id="rules-heading">Protected packages</h2>
      <QueryStates query={rules}>
        {(page) =>
          page.items.length === 0 ? (
            <EmptyState title="No package is protected in this project." />
          ) : (
            <DataTable caption="Package protection rules" columns={columns} data={page.items} getRowId={(rule) => String(rule.id)} />
          )
        }
      </QueryStates>
      {deleting ? (
        <DeleteRuleDialog projectId={projectId} rule={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </section>
  );
}

const EMPTY_RULE: ProtectionRuleFormValues = { package_name_pattern: '', package_type: 'npm', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: '' };
const FIELDS = ['package_name_pattern', 'package_type', 'minimum_access_level_for_push', 'minimum_access_level_for_delete'] as const;

function AddRuleForm({ projectId }: { projectId: number }) {
  const notify = useNotify();
  const create = useCreateProtectionRule();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ProtectionRuleFormValues>({ resolver: zodResolver(protectionRuleFormSchema), defaultValues: EMPTY_RULE });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { projectId, values: protectionRuleInput(values) },
      {
        onSuccess: (rule) => {
          notify(`Protected ${rule.package_name_pattern}.`);
          form.reset(EMPTY_RULE);
          create.reset();
        },
        onError: (error) => setFormError(placeServerErrors(form, error, FIELDS)),
      },
    );
  });
  return (
    <form aria-label="Add protection rule" onSubmit={(event) => void submit(event)} noValidate>
      <h2>Add protection rule</h2>
      <Field label="Name pattern" error={errors.package_name_pattern?.message} hint="For example @my-scope/my-package-* or com/acme/*.">
        <input className="input" autoComplete="off" spellCheck={false} {...form.register('package_name_pattern')} />
      </Field>
      <Field label="Package type" error={errors.package_type?.message}>
        <select className="input" {...form.register('package_type')}>
          {PROTECTION_PACKAGE_TYPES.map((type) => (
            <option key={type} value={type}>
              {packageTypeLabel(type)}
            </option>
          ))}
        </select>
      </Field>
      <LevelField form={form} name="minimum_access_level_for_push" label="Minimum role to push" none="No minimum (Developers push)" levels={PROTECTION_PUSH_LEVELS} />
      <LevelField form={form} name="minimum_access_level_for_delete" label="Minimum role to delete" none="No minimum (Maintainers delete)" levels={PROTECTION_DELETE_LEVELS} />
      <FormError message={formError} />
      <UncertainWrite write={create} />
      <button type="submit" className="button button--primary" disabled={create.isPending} aria-busy={create.isPending || undefined}>
        {create.isPending ? 'Adding rule…' : 'Add rule'}
      </button>
    </form>
  );
}

interface LevelFieldProps {
  form: UseFormReturn<ProtectionRuleFormValues>;
  name: 'minimum_access_level_for_push' | 'minimum_access_level_for_delete';
  label: string;
  /** What '' means for this action. */
  none: string;
  levels: readonly string[];
}

function LevelField({ form, name, label, none, levels }: LevelFieldProps) {
  return (
    <Field label={label} error={form.formState.errors[name]?.message}>
      <select className="input" {...form.register(name)}>
        <option value="">{none}</option>
        {levels.map((level) => (
          <option key={level} value={level}>
            {LEVEL_LABELS[level]}
          </option>
        ))}
      </select>
    </Field>
  );
}
