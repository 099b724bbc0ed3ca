import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { useConnection } from '../../api/react.ts';
import { CLEANUP_CADENCES, CLEANUP_KEEP_N, CLEANUP_OLDER_THAN, registryQueries, type CleanupPolicy, type CleanupPolicyValues } from '../../api/registry.ts';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { Time } from '../../components/time.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import type { ProjectCaller } from '../../components/use-project-caller.ts';
import type { CleanupRules } from '../../lib/registry-cleanup.ts';
import { DecisionList, TagsProgress, useCleanupTags, useAllTags, usePreview, useProtectedNames } from './cleanup-preview.tsx';
import { useUpdateCleanupPolicy } from './mutations.ts';
import { repositoryTitle } from './repository-cells.tsx';
import { formatCountOf } from '../../lib/numbers.ts';

const CADENCE_LABELS: Record<(typeof CLEANUP_CADENCES)[number], string> = {
  '1d': 'Every day',
  '7d': 'Every week',
  '14d': 'Every two weeks',
  '1month': 'Every month',
  '3month': 'Every three months',
};
const OLDER_THAN_LABELS: Record<(typeof CLEANUP_OLDER_THAN)[number], string> = { '7d': '7 days', '14d': '14 days', '30d': '30 days', '60d': '60 days', '90d': '90 days' };

/** The form's values from the saved policy (the platform's defaults where it has none yet). */
export function policyValues(policy: CleanupPolicy | null | undefined): CleanupPolicyValues {
  return {
    enabled: policy?.enabled ?? false,
    cadence: policy?.cadence ?? '1d',
    keep_n: policy ? (policy.keep_n ?? null) : 10,
    older_than: policy ? (policy.older_than ?? null) : '90d',
    name_regex: policy?.name_regex ?? '',
    name_regex_keep: policy?.name_regex_keep ?? '',
  };
}

/** The policy's fields as the rules module names them. */
export function policyRules(values: CleanupPolicyValues): CleanupRules {
  return { nameRegexDelete: values.name_regex || null, nameRegexKeep: values.name_regex_keep || null, keepN: values.keep_n, olderThan: values.older_than };
}

const FIELD_OF: Record<string, keyof CleanupPolicyValues> = { name_regex: 'name_regex', name_regex_delete: 'name_regex', name_regex_keep: 'name_regex_keep', keep_n: 'keep_n', older_than: 'older_than', cadence: 'cadence' };

/** The platform's field errors (`container_expiration_policy.name_regex`) on the fields they name. */
function serverFieldErrors(error: unknown): Partial<Record<keyof CleanupPolicyValues, string>> {
  const out: Partial<Record<keyof CleanupPolicyValues, string>> = {};
  if (!(error instanceof ApiError) || !error.fieldErrors) return out;
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    const field = FIELD_OF[key.split('.').pop() ?? key];
    if (field) out[field] = messages.join('; ');
  }
  return out;
}

interface PolicyEditorProps {
  projectId: number;
  policy: CleanupPolicy | null | undefined;
  caller: ProjectCaller;
  refusal: string | null;
}

/**
 * The project's cleanup policy (`container_expiration_policy_attributes`), with the preview of
 * what its next run would do to one image. A lazy chunk, as the preview's rules engine is.
 */
export default function PolicyEditor({ projectId, policy, caller, refusal }: PolicyEditorProps) {
  const notify = useNotify();
  const save = useUpdateCleanupPolicy();
  const [values, setValues] = useState(() => policyValues(policy));
  const [formError, setFormError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof CleanupPolicyValues, string>>>({});
  const rules = policyRules(values);
  const change = <K extends keyof CleanupPolicyValues>(field: K, value: CleanupPolicyValues[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setServerErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const [now] = useState(() => Date.now());
  const preview = usePolicyPreview(projectId, caller, rules, now);
  const errors = preview.errors;
  const fieldError = (field: keyof CleanupPolicyValues) =>
    serverErrors[field] ?? (field === 'name_regex' ? (values.name_regex ? errors.nameRegexDelete : undefined) : field === 'name_regex_keep' ? errors.nameRegexKeep : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if ((values.name_regex && errors.nameRegexDelete) || errors.nameRegexKeep) return;
    save.mutate(
      { projectId, values },
      {
        onSuccess: (saved) => {
          setValues(policyValues(saved.container_expiration_policy));
          notify('Saved the cleanup policy.');
        },
        onError: (error) => {
          const placed = serverFieldErrors(error);
          setServerErrors(placed);
          if (!Object.keys(placed).length) setFormError(errorText(error));
        },
      },
    );
  };

  return (
    <>
      <form className="form" noValidate onSubmit={submit} aria-label="Cleanup policy">
        <fieldset disabled={refusal !== null} className="form">
          <legend className="sr-only">Cleanup policy</legend>
          <label className="checkbox">
            <input type="checkbox" checked={values.enabled} onChange={(event) => change('enabled', event.target.checked)} /> Run the cleanup policy on schedule
          </label>
          <Field label="Run cleanup" error={serverErrors.cadence} hint={policy?.next_run_at ? <>Next run: <Time value={policy.next_run_at} /></> : undefined}>
            <select className="input" value={values.cadence} onChange={(event) => change('cadence', event.target.value)}>
              {CLEANUP_CADENCES.map((cadence) => (
                <option key={cadence} value={cadence}>
                  {CADENCE_LABELS[cadence]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Keep the most recent" error={serverErrors.keep_n} hint="Per image: the newest tags that match the delete expression stay.">
            <select className="input" value={values.keep_n ?? ''} onChange={(event) => change('keep_n', event.target.value === '' ? null : Number(event.target.value))}>
              <option value="">No minimum</option>
              {CLEANUP_KEEP_N.map((count) => (
                <option key={count} value={count}>
                  {`${formatCountOf(count, 'tag', 'tags')} per image`}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Keep tags matching" error={fieldError('name_regex_keep')} hint={preview.warnings.nameRegexKeep ?? 'RE2, the whole tag name; wins over the delete expression.'}>
            <input className="input" autoComplete="off" spellCheck={false} value={values.name_regex_keep} onChange={(event) => change('name_regex_keep', event.target.value)} />
          </Field>
          <Field label="Remove tags older than" error={serverErrors.older_than}>
            <select className="input" value={values.older_than ?? ''} onChange={(event) => change('older_than', event.target.value === '' ? null : event.target.value)}>
              <option value="">Any age</option>
              {CLEANUP_OLDER_THAN.map((age) => (
                <option key={age} value={age}>
                  {OLDER_THAN_LABELS[age]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Remove tags matching" error={fieldError('name_regex')} hint={preview.warnings.nameRegexDelete ?? 'RE2, the whole tag name: .* for every tag the other rules allow. Empty removes nothing.'}>
            <input className="input" autoComplete="off" spellCheck={false} value={values.name_regex} onChange={(event) => change('name_regex', event.target.value)} />
          </Field>
          <FormError message={formError} write={save} />
          <UncertainWrite write={save} />
          <div className="dialog__actions">
            <button type="submit" className="button button--primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
              {save.isPending ? 'Saving…' : 'Save cleanup policy'}
            </button>
          </div>
        </fieldset>
      </form>
      {preview.element}
    </>
  );
}

/** The preview against one of the project's images, chosen by the user. */
function usePolicyPreview(projectId: number, caller: ProjectCaller, rules: CleanupRules, now: number) {
  const connection = useConnection();
  const repositories = useQuery(registryQueries.repositories(connection, { project: projectId }, { page: 1, per_page: 100 }));
  const [chosen, setChosen] = useState<number | null>(null);
  const images = repositories.data?.items ?? [];
  const repository = images.find((image) => image.id === chosen) ?? images[0];
  const all = useAllTagsOf(projectId, repository?.id ?? null);
  const protection = useProtectedNames(projectId, caller, all.rows);
  const tags = useCleanupTags(all.rows, protection.protectedNames);
  const preview = usePreview(tags, rules, now);
  const element = (
    <section aria-labelledby="policy-preview-heading">
      <h2 id="policy-preview-heading">What the next run would do</h2>
      {!repository ? (
        <p>This project has no images yet: the preview shows once one is pushed.</p>
      ) : (
        <>
          <label className="inline-field">
            <span>Image</span>
            <select className="input" value={repository.id} onChange={(event) => setChosen(Number(event.target.value))}>
              {images.map((image) => (
                <option key={image.id} value={image.id}>
                  {repositoryTitle(image)}
                </option>
              ))}
            </select>
          </label>
          <TagsProgress loaded={all.rows.length} total={repository.tags_count} done={all.done} error={all.query.isError ? all.query.error : null} onRetry={() => void all.query.fetchNextPage()} />
          {!rules.nameRegexDelete ? (
            <p role="status">Without a delete expression the policy removes no tag.</p>
          ) : all.done && protection.ready ? (
            <DecisionList preview={preview} rules={rules} label="Preview of the cleanup policy" />
          ) : null}
        </>
      )}
    </section>
  );
  return { errors: preview.errors, warnings: preview.warnings, element };
}

/** useAllTags for the image in the select; hooks keep their order while none is chosen yet. */
function useAllTagsOf(projectId: number, repositoryId: number | null) {
  return useAllTags(projectId, repositoryId ?? 0, repositoryId !== null);
}
