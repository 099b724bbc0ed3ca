import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  RUNNER_ACCESS_LEVELS, TEXT_MAX, runnerFieldErrors, runnerFormSchema, runnerFormValues, runnerUpdateBody,
  type RunnerDetail, type RunnerFormValues,
} from '../../api/runners.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { useAssignRunner, useDeleteRunner, useResetRunnerToken, useUnassignRunner, useUpdateRunner } from './mutations.ts';
import { ProjectPicker, type PickedProject } from '../../components/project-picker.tsx';
import { FormError, FormActions } from '../../components/form-footer.tsx';
import { AccessLevel } from '../../api/vocabulary.ts';

const FORM_FIELDS = ['description', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'] as const;

/** Sends only what changed, so a setting someone else changed meanwhile is not overwritten. */
export function EditRunnerDialog({ runner, onClose, onSaved }: { runner: RunnerDetail; onClose: () => void; onSaved: (runner: RunnerDetail) => void }) {
  const update = useUpdateRunner();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<RunnerFormValues>({ resolver: zodResolver(runnerFormSchema), defaultValues: runnerFormValues(runner) });
  const note = useWatch({ control: form.control, name: 'maintenance_note' }) ?? '';
  const { errors, dirtyFields } = form.formState;
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    const changed = FORM_FIELDS.filter((field) => dirtyFields[field]);
    if (changed.length === 0) {
      setFormError('Nothing changed.');
      return;
    }
    update.mutate(
      { runnerId: runner.id, body: runnerUpdateBody(values, changed) },
      {
        onSuccess: (saved) => {
          onClose();
          onSaved(saved);
        },
        onError: (error) => {
          if (!applyServerErrors(form, runnerFieldErrors(error), FORM_FIELDS)) setFormError(errorText(error));
        },
      },
    );
  });
  return (
    <Dialog open onOpenChange={(next) => (!next && !update.isPending ? onClose() : undefined)} title={`Edit runner #${runner.id}`}>
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Description" error={errors.description?.message}>
          <input className="input" {...form.register('description')} />
        </Field>
        <Field label="Tags" error={errors.tag_list?.message} hint="Comma-separated; jobs with these tags run here.">
          <input className="input" {...form.register('tag_list')} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register('run_untagged')} /> Run untagged jobs
        </label>
        <label className="checkbox">
          <input type="checkbox" {...form.register('locked')} /> Lock to current projects
        </label>
        <Field label="Jobs it may run" error={errors.access_level?.message}>
          <select className="input" {...form.register('access_level')}>
            {RUNNER_ACCESS_LEVELS.map((level) => (
              <option key={level.value} value={level.value}>
                {level.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Maximum job timeout (seconds)" error={errors.maximum_timeout?.message} hint="At least 600 (10 minutes); empty for the project’s own timeout.">
          <input className="input input--narrow" inputMode="numeric" {...form.register('maximum_timeout')} />
        </Field>
        <Field
          label="Maintenance note"
          error={errors.maintenance_note?.message}
          hint={<span aria-live="polite">{`${note.length} / ${TEXT_MAX} characters`}</span>}
        >
          <textarea className="input" rows={4} {...form.register('maintenance_note')} />
        </Field>
        <FormError message={formError} />
        <FormActions write={update} onCancel={onClose} submitLabel="Save changes" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

export function DeleteRunnerDialog({ runner, onClose, onDeleted }: { runner: RunnerDetail; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteRunner();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete runner #${runner.id}?`}
      description={
        <>
          “{runner.description || `#${runner.id}`}” is removed for good: its authentication token stops working and the jobs it would have picked wait for other runners.
        </>
      }
      confirmLabel="Delete runner"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { runnerId: runner.id },
          {
            onSuccess: () => {
              onClose();
              onDeleted();
            },
          },
        )
      }
    />
  );
}

export function ResetRunnerTokenDialog({ runner, onClose, onReset }: { runner: RunnerDetail; onClose: () => void; onReset: (token: string) => void }) {
  const reset = useResetRunnerToken();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Reset the token of runner #${runner.id}?`}
      description="The runner’s current authentication token stops working at once: the runner cannot pick jobs until its configuration has the new token, which is shown once."
      confirmLabel="Reset token"
      destructive
      write={reset}
      error={reset.error ? errorText(reset.error) : null}
      onConfirm={() =>
        reset.mutate(
          { runnerId: runner.id },
          {
            onSuccess: (answer) => {
              onClose();
              onReset(answer.token);
              // the mutation held the secret: let go of it now that the caller has it
              reset.reset();
            },
          },
        )
      }
    />
  );
}

/** One more project the runner serves: one where the caller is Maintainer or Owner (any, for an administrator). */
export function AssignRunnerDialog({ runner, isAdmin, onClose, onAssigned }: { runner: RunnerDetail; isAdmin: boolean; onClose: () => void; onAssigned: (projectName: string) => void }) {
  const assign = useAssignRunner();
  const [target, setTarget] = useState<PickedProject | null>(null);
  const [unpicked, setUnpicked] = useState(false);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Assign runner #${runner.id} to a project`}
      description={
        target
          ? `Runner #${runner.id} also picks the jobs of ${target.name}, as it does for its other projects.`
          : 'Pick the project the runner should serve too: one where you are Maintainer or Owner.'
      }
      confirmLabel="Assign runner"
      write={assign}
      error={assign.error ? errorText(assign.error) : unpicked && !target ? 'Pick the project first.' : null}
      onConfirm={() => {
        if (!target) return setUnpicked(true);
        assign.mutate(
          { runnerId: runner.id, projectId: target.id },
          {
            onSuccess: () => {
              onClose();
              onAssigned(target.name);
            },
          },
        );
      }}
    >
      <ProjectPicker
        legend="Project"
        value={target}
        onChange={setTarget}
        everywhere={isAdmin}
        minAccessLevel={AccessLevel.MAINTAINER}
        excluded={runner.projects.map((project) => project.id)}
        noneLeft="No other project has you as Maintainer or Owner."
      />
    </ConfirmDialog>
  );
}

export function UnassignRunnerDialog({ runner, project, onClose, onUnassigned }: { runner: RunnerDetail; project: { id: number; name_with_namespace: string }; onClose: () => void; onUnassigned: () => void }) {
  const unassign = useUnassignRunner();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Unassign runner #${runner.id} from ${project.name_with_namespace}?`}
      description="The project stops using the runner: its jobs wait for the project’s other runners. The runner keeps serving its other projects and can be assigned here again."
      confirmLabel="Unassign runner"
      destructive
      write={unassign}
      error={unassign.error ? errorText(unassign.error) : null}
      onConfirm={() =>
        unassign.mutate(
          { runnerId: runner.id, projectId: project.id },
          {
            onSuccess: () => {
              onClose();
              onUnassigned();
            },
          },
        )
      }
    />
  );
}
