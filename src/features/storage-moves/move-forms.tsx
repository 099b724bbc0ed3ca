import type { ComponentProps } from 'react';
import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import {
  REPOSITORY_STORAGES, bulkMoveSchema, scheduleMoveSchema, storageMovesQueries,
  type BulkMoveValues, type ScheduleMoveInput, type ScheduleMoveValues,
} from '../../api/storage-moves.ts';
import { useConnection } from '../../api/react.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { useNotify } from '../../components/toast.tsx';
import { useBulkMove, useScheduleMove } from './mutations.ts';
import { FormError } from '../../components/form-footer.tsx';

/** The instance's repository storages (the platform lists them nowhere in its API). */
function StorageSelect(props: ComponentProps<'select'>) {
  return (
    <select className="input" {...props}>
      {REPOSITORY_STORAGES.map((storage) => (
        <option key={storage} value={storage}>
          {storage}
        </option>
      ))}
    </select>
  );
}

const READ_ONLY_NOTE = 'The repository is read-only while it moves: pushes and commits are refused until the move ends.';

interface Candidate {
  id: number;
  label: string;
}

/** Projects or groups matching the search; a number also stands for a group id. */
function useCandidates(kind: 'project' | 'group', search: string): { candidates: Candidate[]; loading: boolean } {
  const connection = useConnection();
  const term = search.trim();
  const projects = useQuery({ ...projectsQueries.search(connection, term, true), enabled: kind === 'project' && term !== '' });
  const groups = useQuery({ ...groupsQueries.search(connection, term, true), enabled: kind === 'group' && term !== '' });
  if (term === '') return { candidates: [], loading: false };
  if (kind === 'project') {
    return { candidates: (projects.data?.items ?? []).map((project) => ({ id: project.id, label: project.path_with_namespace })), loading: projects.isFetching };
  }
  const found = (groups.data?.items ?? []).map((group) => ({ id: group.id, label: group.full_path }));
  if (/^\d+$/.test(term) && !found.some((group) => group.id === Number(term))) found.unshift({ id: Number(term), label: `Group with id ${term}` });
  return { candidates: found, loading: groups.isFetching };
}

/** Schedules the move of one project or group to the chosen storage. */
export function ScheduleMoveForm() {
  const connection = useConnection();
  const notify = useNotify();
  const schedule = useScheduleMove();
  const [search, setSearch] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ScheduleMoveInput, unknown, ScheduleMoveValues>({
    resolver: zodResolver(scheduleMoveSchema),
    defaultValues: { kind: 'project', containerId: '', destination: 'storage-2' },
  });
  const { errors } = form.formState;
  const kind = form.watch('kind');
  const containerId = form.watch('containerId');
  const { candidates, loading } = useCandidates(kind, useDeferredValue(search));
  const projectId = kind === 'project' && /^\d+$/.test(containerId) ? Number(containerId) : 0;
  const current = useQuery({ ...storageMovesQueries.projectStorage(connection, projectId), enabled: projectId > 0 });
  const currentStorage = current.data?.repository_storage;

  const submit = form.handleSubmit((values) => {
    setFormError(null);
    // the platform accepts it and then fails the move (the copy would land on itself)
    if (values.kind === 'project' && currentStorage === values.destination) {
      form.setError('destination', { type: 'validate', message: `The project is already on ${values.destination}` });
      return;
    }
    const label = candidates.find((candidate) => candidate.id === Number(values.containerId))?.label ?? `${values.kind} ${values.containerId}`;
    schedule.mutate(
      { kind: values.kind, containerId: Number(values.containerId), destination: values.destination },
      {
        onSuccess: (move) => {
          notify(`Scheduled the move of ${label} from ${move.source_storage_name} to ${move.destination_storage_name}.`);
          form.reset({ kind: values.kind, containerId: '', destination: values.destination });
          setSearch('');
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, ['destination'])) setFormError(errorText(error));
        },
      },
    );
  });

  const noun = kind === 'project' ? 'Project' : 'Group';
  return (
    <form className="form" noValidate onSubmit={submit} aria-label="Schedule a move">
      <h2>Schedule a move</h2>
      <fieldset className="field">
        <legend className="field__label">Move</legend>
        <label className="checkbox">
          <input type="radio" value="project" {...form.register('kind', { onChange: () => form.setValue('containerId', '') })} /> A project's repository
        </label>
        <label className="checkbox">
          <input type="radio" value="group" {...form.register('kind', { onChange: () => form.setValue('containerId', '') })} /> A group's wiki repository
        </label>
      </fieldset>
      <Field label={kind === 'project' ? 'Search projects' : 'Search groups'} hint={kind === 'group' ? 'A name, a path or a group id.' : 'A name or a path.'}>
        <input className="input" type="search" autoComplete="off" value={search} onChange={(event) => setSearch(event.target.value)} />
      </Field>
      <Field
        label={noun}
        error={errors.containerId?.message}
        hint={
          projectId > 0
            ? current.isPending
              ? 'Looking up its storage…'
              : currentStorage
                ? `Currently on ${currentStorage}.`
                : 'Its current storage is not shown to this token.'
            : loading
              ? 'Searching…'
              : search.trim() && candidates.length === 0
                ? `No ${kind} matches.`
                : undefined
        }
      >
        <select className="input" {...form.register('containerId')}>
          <option value="">{candidates.length ? `Choose a ${kind}` : `Search for a ${kind} first`}</option>
          {candidates.map((candidate) => (
            <option key={candidate.id} value={String(candidate.id)}>
              {candidate.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Destination storage" error={errors.destination?.message} hint={READ_ONLY_NOTE}>
        <StorageSelect {...form.register('destination')} />
      </Field>
      <FormError message={formError} write={schedule} />
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={schedule.isPending} aria-busy={schedule.isPending || undefined}>
          {schedule.isPending ? 'Scheduling…' : 'Schedule move'}
        </button>
      </div>
    </form>
  );
}

/** Moves every project of one storage to another, after a confirmation. */
export function BulkMoveForm() {
  const notify = useNotify();
  const bulk = useBulkMove();
  const [confirming, setConfirming] = useState<BulkMoveValues | null>(null);
  const form = useForm<BulkMoveValues>({ resolver: zodResolver(bulkMoveSchema), defaultValues: { source: 'default', destination: 'storage-2' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => {
    bulk.reset();
    setConfirming(values);
  });

  return (
    <form className="form" noValidate onSubmit={submit} aria-label="Move all projects of a storage">
      <h2>Move all projects of a storage</h2>
      <Field label="Source storage" error={errors.source?.message}>
        <StorageSelect {...form.register('source')} />
      </Field>
      <Field label="Destination storage" error={errors.destination?.message}>
        <StorageSelect {...form.register('destination')} />
      </Field>
      <div className="dialog__actions">
        <button type="submit" className="button">
          Move all projects
        </button>
      </div>
      {confirming ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => (!next ? setConfirming(null) : undefined)}
          title={`Move every project off ${confirming.source}?`}
          description={<>Every project on {confirming.source} moves to {confirming.destination}; repositories are read-only while they move.</>}
          confirmLabel="Schedule the moves"
          destructive
          write={bulk}
          error={bulk.error ? errorText(bulk.error) : null}
          onConfirm={() =>
            bulk.mutate(confirming, {
              onSuccess: () => {
                notify(`Scheduled every project on ${confirming.source} to move to ${confirming.destination}.`);
                setConfirming(null);
              },
            })
          }
        />
      ) : null}
    </form>
  );
}
