import { useEffect, useMemo, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch, type UseFieldArrayReturn, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { branchesQueries } from '../../api/branches.ts';
import type { CiConfigVariable } from '../../api/graphql.ts';
import { VARIABLE_TYPES, pipelinesQueries, runPipelineSchema, runPipelineVariables, type RunPipelineValues } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { repositoryQueries } from '../../api/repository.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { placeServerErrors } from '../../components/form-errors.ts';
import { FormError } from '../../components/form-footer.tsx';
import { useSettled } from '../../components/list-hooks.ts';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { useCreatePipeline } from './mutations.ts';
import { blankRow, prefillChanges } from './prefill.ts';
import './pipelines.css';
import { runRefusal } from '../../components/pipeline-writes.ts';

interface RunPipelineScreenProps {
  projectId: number;
  projectName?: string;
  /** The project's full path: GraphQL names projects by it. */
  fullPath?: string;
  defaultBranch?: string | null;
  /** The ref asked for in the URL; the default branch when empty. */
  initialRef: string;
}

const TYPE_LABELS: Record<(typeof VARIABLE_TYPES)[number], string> = { env_var: 'Variable', file: 'File' };

/** Run a pipeline: a branch or tag, and variables prefilled from the CI file of that ref. */
export function RunPipelineScreen({ projectId, projectName, fullPath, defaultBranch, initialRef }: RunPipelineScreenProps) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = runRefusal(caller);
  return (
    <section className="screen" aria-labelledby="run-pipeline-heading">
      <header className="screen__header">
        <h1 id="run-pipeline-heading">{projectName ? `Run a pipeline of ${projectName}` : 'Run a pipeline'}</h1>
        <Link to="/projects/$projectId/pipelines" params={{ projectId: String(projectId) }} className="button">
          Back to pipelines
        </Link>
      </header>
      <RoleUnread failure={failure} />
      {!pending && refusal ? (
        <p className="notice" role="note">
          {refusal}
        </p>
      ) : null}
      <RunPipelineForm projectId={projectId} fullPath={fullPath} initialRef={initialRef || defaultBranch || ''} disabled={pending || refusal !== null} />
    </section>
  );
}

interface RunPipelineFormProps {
  projectId: number;
  fullPath?: string;
  initialRef: string;
  disabled: boolean;
}

function RunPipelineForm({ projectId, fullPath, initialRef, disabled }: RunPipelineFormProps) {
  const connection = useConnection();
  const navigate = useNavigate();
  const notify = useNotify();
  const create = useCreatePipeline();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<RunPipelineValues>({ resolver: zodResolver(runPipelineSchema), defaultValues: { ref: initialRef, variables: [blankRow()] } });
  const rows = useFieldArray({ control: form.control, name: 'variables' });
  const ref = useWatch({ control: form.control, name: 'ref' });
  // the project's default branch arrives after the form when the URL named no ref
  useEffect(() => {
    if (!form.getValues('ref') && initialRef) form.setValue('ref', initialRef);
  }, [initialRef]);

  const config = useQuery({ ...pipelinesQueries.ciConfigVariables(connection, fullPath ?? '', ref), enabled: Boolean(fullPath && ref) });
  const described = useMemo(() => new Map((config.data ?? []).map((variable) => [variable.key, variable])), [config.data]);
  usePrefill(form, rows, ref, config.data);

  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { projectId, ref: values.ref, variables: runPipelineVariables(values.variables) },
      {
        onSuccess: (pipeline) => {
          notify(`Pipeline #${pipeline.id} created on ${values.ref}.`);
          void navigate({
            to: '/projects/$projectId/pipelines/$pipelineId' as never,
            params: { projectId: String(projectId), pipelineId: String(pipeline.id) } as never,
          });
        },
        onError: (error) => setFormError(placeServerErrors(form, error, ['ref'])),
      },
    );
  });
  const { errors } = form.formState;

  return (
    <form className="form run-form" noValidate onSubmit={submit} aria-label="Run pipeline">
      <RefPicker projectId={projectId} form={form} error={errors.ref?.message} />
      <fieldset className="field">
        <legend className="field__label">Variables</legend>
        <p className="field__hint">
          {config.isFetching && !config.data
            ? 'Reading the variables the CI file defines for this ref…'
            : config.data?.some((variable) => variable.description)
              ? 'Prefilled with the variables the CI file of this ref describes; change the values for this run, or add more.'
              : 'Variables for this run only. Keys are letters, digits and _.'}
        </p>
        {config.isError ? <ErrorPanel error={config.error} onRetry={() => void config.refetch()} /> : null}
        {rows.fields.map((item, index) => (
          <VariableRow key={item.id} form={form} index={index} described={described} onRemove={() => rows.remove(index)} />
        ))}
        <button type="button" className="button" onClick={() => rows.append(blankRow())}>
          Add variable
        </button>
      </fieldset>
      <FormError message={formError} />
      <UncertainWrite write={create} />
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={disabled || create.isPending} aria-busy={create.isPending || undefined}>
          {create.isPending ? 'Running…' : 'Run pipeline'}
        </button>
      </div>
    </form>
  );
}

/** Applies the CI file's variables once per chosen ref, as they arrive, without remounting the rows kept. */
function usePrefill(form: UseFormReturn<RunPipelineValues>, rows: UseFieldArrayReturn<RunPipelineValues, 'variables'>, ref: string, fileVariables: CiConfigVariable[] | null | undefined) {
  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!fileVariables || filledFor.current === ref) return;
    filledFor.current = ref;
    const changes = prefillChanges(form.getValues('variables'), fileVariables);
    if (changes.remove.length) rows.remove(changes.remove);
    if (changes.prepend.length) rows.prepend(changes.prepend, { shouldFocus: false });
    if (changes.appendBlank) rows.append(blankRow(), { shouldFocus: false });
  }, [ref, fileVariables]);
}

function RefPicker({ projectId, form, error }: { projectId: number; form: UseFormReturn<RunPipelineValues>; error?: string }) {
  const connection = useConnection();
  const [find, setFind] = useState('');
  const search = useSettled(find.trim(), 250);
  const branches = useQuery({ ...branchesQueries.list(connection, projectId, { search: search || undefined, per_page: 100 }), placeholderData: keepPreviousData });
  const tags = useQuery({ ...repositoryQueries.tags(connection, projectId, { search: search || undefined, per_page: 100 }), placeholderData: keepPreviousData });
  const chosen = useWatch({ control: form.control, name: 'ref' });
  const branchNames = (branches.data?.items ?? []).map((branch) => branch.name);
  const tagNames = (tags.data?.items ?? []).map((tag) => tag.name);
  // the chosen ref stays an option whatever the search shows
  const extra = chosen && !branchNames.includes(chosen) && !tagNames.includes(chosen) ? chosen : null;
  const loadError = branches.error ?? tags.error;
  return (
    <div className="field">
      <label className="inline-field">
        <span>Find a branch or tag</span>
        <input type="search" className="input input--search" value={find} onChange={(event) => setFind(event.target.value)} placeholder="release" />
      </label>
      <Field
        label="Run for branch or tag"
        error={error}
        hint={branches.isFetching || tags.isFetching ? 'Loading branches and tags…' : `${branchNames.length} branches and ${tagNames.length} tags${search ? ` matching “${search}”` : ''} (at most 100 of each).`}
      >
        {/* controlled: options come and go with the search, and the chosen one must stay selected */}
        <select className="input" value={chosen} {...form.register('ref')}>
          {chosen ? null : <option value="">Choose a branch or tag</option>}
          {extra ? <option value={extra}>{extra}</option> : null}
          <optgroup label="Branches">
            {branchNames.map((name) => (
              <option key={`branch:${name}`} value={name}>
                {name}
              </option>
            ))}
          </optgroup>
          <optgroup label="Tags">
            {tagNames.map((name) => (
              <option key={`tag:${name}`} value={name}>
                {name}
              </option>
            ))}
          </optgroup>
        </select>
      </Field>
      {loadError ? <ErrorPanel error={loadError} onRetry={() => void (branches.refetch(), tags.refetch())} /> : null}
    </div>
  );
}

interface VariableRowProps {
  form: UseFormReturn<RunPipelineValues>;
  index: number;
  described: Map<string, CiConfigVariable>;
  onRemove: () => void;
}

function VariableRow({ form, index, described, onRemove }: VariableRowProps) {
  const key = useWatch({ control: form.control, name: `variables.${index}.key` });
  const errors = form.formState.errors.variables?.[index];
  const fromFile = described.get(key);
  const number = index + 1;
  return (
    <div className="filter-bar variable-row" role="group" aria-label={`Variable ${number}${key ? ` ${key}` : ''}`}>
      <Field label={`Key of variable ${number}`} error={errors?.key?.message}>
        <input className="input" autoComplete="off" spellCheck={false} {...form.register(`variables.${index}.key`)} />
      </Field>
      <Field label={`Value of variable ${number}`} error={errors?.value?.message} hint={fromFile?.description ?? undefined}>
        {fromFile && fromFile.valueOptions.length > 0 ? (
          <select className="input" {...form.register(`variables.${index}.value`)}>
            {fromFile.valueOptions.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : (
          <textarea className="input" rows={1} spellCheck={false} {...form.register(`variables.${index}.value`)} />
        )}
      </Field>
      <Field label={`Type of variable ${number}`}>
        <select className="input" {...form.register(`variables.${index}.variable_type`)}>
          {VARIABLE_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" className="button button--danger-quiet" onClick={onRemove}>
        Remove variable {number}
      </button>
    </div>
  );
}
