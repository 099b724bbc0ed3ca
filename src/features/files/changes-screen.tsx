import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod/mini';
import type { CommitAction } from '../../api/commits.ts';
import { ApiError } from '../../api/errors.ts';
import { filesQueries, getFileMeta } from '../../api/files.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { normalizePath } from '../../api/params.ts';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { Note } from '../../components/note.tsx';
import { useNotify } from '../../components/toast.tsx';
import { CommitFields, commitFieldsSchema, defaultTargetBranch } from './commit-fields.tsx';
import { fileErrorField } from './file-errors.ts';
import { Preparing } from './preparing.tsx';
import { useFollowRef } from './use-follow-ref.ts';
import { FilesToolbar } from './files-toolbar.tsx';
import { useCommitChanges } from './mutations.ts';
import { useFilesContext, type FilesContext } from './use-files-context.ts';
import { formatCountOf } from '../../lib/numbers.ts';

const ACTIONS = [
  { value: 'create', label: 'Create a file' },
  { value: 'update', label: 'Replace a file’s content' },
  { value: 'move', label: 'Move or rename a file' },
  { value: 'delete', label: 'Delete a file' },
  { value: 'chmod', label: 'Change whether a file is executable' },
] as const;
type StagedKind = (typeof ACTIONS)[number]['value'];

export interface StagedChange {
  action: StagedKind;
  file_path: string;
  previous_path?: string;
  content?: string;
  last_commit_id?: string;
  execute_filemode?: boolean;
}

const VERBS: Record<StagedKind, string> = { create: 'Create', update: 'Update', move: 'Move', delete: 'Delete', chmod: 'Change mode of' };

/** One line per change, as the staged list reads it: "Move a.txt → b.txt". */
export function describeChange(change: StagedChange): string {
  if (change.action === 'move') return `Move ${change.previous_path} → ${change.file_path}`;
  if (change.action === 'chmod') return `Make ${change.file_path} ${change.execute_filemode ? 'executable' : 'not executable'}`;
  return `${VERBS[change.action]} ${change.file_path}`;
}

/** The commit's actions: text content, and the last commit seen for updates whose content was loaded. */
export function commitActions(changes: readonly StagedChange[]): CommitAction[] {
  return changes.map((change) => ({
    action: change.action,
    file_path: change.file_path,
    ...(change.previous_path ? { previous_path: change.previous_path } : {}),
    ...(change.content !== undefined ? { content: change.content, encoding: 'text' as const } : {}),
    ...(change.last_commit_id ? { last_commit_id: change.last_commit_id } : {}),
    ...(change.action === 'chmod' ? { execute_filemode: Boolean(change.execute_filemode) } : {}),
  }));
}

const validPath = (path: string) => path !== '' && !path.split('/').includes('..');

const stageSchema = z
  .object({
    action: z.enum(['create', 'update', 'move', 'delete', 'chmod']),
    file_path: z.string().check(z.trim(), z.refine((path) => validPath(normalizePath(path)), 'A file path, e.g. docs/notes.md; no “..”')),
    previous_path: z.string().check(z.trim()),
    content: z.string(),
    keep_content: z.boolean(),
    executable: z.boolean(),
  })
  .check(
    z.refine((values) => values.action !== 'move' || validPath(normalizePath(values.previous_path)), { message: 'Name the file to move', path: ['previous_path'] }),
  );
type StageValues = z.output<typeof stageSchema>;

const commitSchema = z.object(commitFieldsSchema);
type CommitValues = z.output<typeof commitSchema>;

/** Stages several file changes (create, update, move, delete) and commits them together, as one commit. */
export function ChangesScreen({ projectId, urlRef, directory }: { projectId: number; urlRef: string; directory: string }) {
  const context = useFilesContext(projectId, urlRef);
  const [staged, setStaged] = useState<StagedChange[]>([]);
  if (!context.ready) return <Preparing />;
  if (!context.access.canEdit) {
    return (
      <section aria-labelledby="changes-heading">
        <h1 id="changes-heading">Commit several changes</h1>
        <p className="notice" role="note">
          {context.access.reason ?? 'You cannot change files here.'}
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="changes-heading" className="file-editor">
      <h1 id="changes-heading">Commit several changes</h1>
      <FilesToolbar projectId={projectId} projectName={context.project.path} gitRef={context.gitRef} urlRef={urlRef} path={normalizePath(directory)} />
      <Note>{context.access.reason}</Note>
      <StageForm projectId={projectId} gitRef={context.gitRef} directory={normalizePath(directory)} staged={staged} onStage={(change) => setStaged((current) => [...current, change])} />
      <section aria-labelledby="staged-heading">
        <h2 id="staged-heading">Staged changes</h2>
        {staged.length === 0 ? (
          <p className="muted">Nothing staged yet: add changes above, then commit them together.</p>
        ) : (
          <ul className="link-list staged-changes" aria-label="Staged changes">
            {staged.map((change, index) => (
              <li key={`${change.action}:${change.file_path}`}>
                <span>{describeChange(change)}</span>
                <button type="button" className="button button--danger-quiet" aria-label={`Unstage ${describeChange(change)}`} onClick={() => setStaged((current) => current.filter((_, at) => at !== index))}>
                  Unstage
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <CommitForm projectId={projectId} context={context} urlRef={urlRef} staged={staged} onCommitted={() => setStaged([])} />
    </section>
  );
}

function StageForm({ projectId, gitRef, directory, staged, onStage }: { projectId: number; gitRef: string; directory: string; staged: readonly StagedChange[]; onStage: (change: StagedChange) => void }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<{ path: string; lastCommitId: string } | null>(null);
  const [loading, setLoading] = useState(false);
  const [checking, setChecking] = useState(false);
  const prefix = directory ? `${directory}/` : '';
  const form = useForm<StageValues>({
    resolver: zodResolver(stageSchema) as unknown as Resolver<StageValues>,
    defaultValues: { action: 'create', file_path: prefix, previous_path: '', content: '', keep_content: true, executable: true },
  });
  const { errors } = form.formState;
  const action = form.watch('action');
  const keepContent = form.watch('keep_content');

  const loadContent = async () => {
    const path = normalizePath(form.getValues('file_path'));
    if (!validPath(path)) return form.setError('file_path', { type: 'manual', message: 'Name the file to load first' });
    setLoading(true);
    try {
      const file = await queryClient.fetchQuery(filesQueries.file(connection, projectId, path, gitRef));
      if (file.text === null) return form.setError('file_path', { type: 'manual', message: 'That is a binary file: its content cannot be edited as text.' });
      form.setValue('content', file.text);
      form.clearErrors('file_path');
      setLoaded({ path, lastCommitId: file.last_commit_id });
    } catch (error) {
      form.setError('file_path', { type: 'server', message: errorText(error) });
    } finally {
      setLoading(false);
    }
  };

  const submit = form.handleSubmit(async (values) => {
    const filePath = normalizePath(values.file_path);
    const previousPath = normalizePath(values.previous_path);
    const touched = new Set(staged.flatMap((change) => [change.file_path, change.previous_path].filter(Boolean)));
    if (touched.has(filePath) || (values.action === 'move' && touched.has(previousPath))) {
      return form.setError('file_path', { type: 'manual', message: 'A staged change already touches this file: unstage it first.' });
    }
    // the file must exist (or, to be created, must not) at the ref; its last commit then guards the commit against changes meanwhile
    const existing = values.action === 'move' ? previousPath : filePath;
    const existingField = values.action === 'move' ? 'previous_path' : 'file_path';
    let lastCommitId = values.action === 'update' && loaded?.path === filePath ? loaded.lastCommitId : undefined;
    setChecking(true);
    try {
      const meta = await getFileMeta(connection, projectId, existing, gitRef);
      if (values.action === 'create') return form.setError('file_path', { type: 'manual', message: `A file with this name already exists at ${gitRef}.` });
      lastCommitId ??= meta.last_commit_id;
    } catch (error) {
      const missing = error instanceof ApiError && error.status === 404;
      if (!missing) return form.setError(existingField, { type: 'server', message: errorText(error) });
      if (values.action !== 'create') return form.setError(existingField, { type: 'manual', message: `There is no file ${existing} at ${gitRef}.` });
    } finally {
      setChecking(false);
    }
    const withContent = values.action === 'create' || values.action === 'update' || (values.action === 'move' && !values.keep_content);
    onStage({
      action: values.action,
      file_path: filePath,
      ...(values.action === 'move' ? { previous_path: previousPath } : {}),
      ...(withContent ? { content: values.content } : {}),
      ...(values.action !== 'create' && lastCommitId ? { last_commit_id: lastCommitId } : {}),
      ...(values.action === 'chmod' ? { execute_filemode: values.executable } : {}),
    });
    setLoaded(null);
    form.reset({ action: values.action, file_path: prefix, previous_path: '', content: '', keep_content: true, executable: true });
  });

  return (
    <form className="form" noValidate onSubmit={submit} aria-label="Stage a change">
      <h2>Stage a change</h2>
      <Field label="Change">
        <select className="input" {...form.register('action')}>
          {ACTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      {action === 'move' ? (
        <Field label="Current path" error={errors.previous_path?.message}>
          <input className="input" spellCheck={false} autoComplete="off" {...form.register('previous_path')} />
        </Field>
      ) : null}
      <Field label={action === 'move' ? 'New path' : 'File path'} error={errors.file_path?.message} hint={`From the repository’s root, at ${gitRef}.`}>
        <input className="input" spellCheck={false} autoComplete="off" {...form.register('file_path')} />
      </Field>
      {action === 'update' ? (
        <p>
          <button type="button" className="button" onClick={() => void loadContent()} disabled={loading} aria-busy={loading || undefined}>
            {loading ? 'Loading content…' : 'Load current content'}
          </button>
        </p>
      ) : null}
      {action === 'move' ? (
        <label className="checkbox">
          <input type="checkbox" {...form.register('keep_content')} /> Keep the content as it is
        </label>
      ) : null}
      {action === 'chmod' ? (
        <label className="checkbox">
          <input type="checkbox" {...form.register('executable')} /> Executable
        </label>
      ) : null}
      {action === 'create' || action === 'update' || (action === 'move' && !keepContent) ? (
        <Field label="Content" error={errors.content?.message}>
          <textarea className="input file-editor__snippet" rows={10} spellCheck={false} wrap="off" {...form.register('content')} />
        </Field>
      ) : null}
      <div className="dialog__actions">
        <button type="submit" className="button" disabled={checking} aria-busy={checking || undefined}>
          {checking ? 'Checking…' : 'Stage change'}
        </button>
      </div>
    </form>
  );
}

function CommitForm({ projectId, context, urlRef, staged, onCommitted }: { projectId: number; context: FilesContext; urlRef: string; staged: readonly StagedChange[]; onCommitted: () => void }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const username = useActiveSession()?.connection.username;
  const commit = useCommitChanges(projectId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CommitValues>({
    resolver: zodResolver(commitSchema) as unknown as Resolver<CommitValues>,
    defaultValues: { commit_message: '', branch: defaultTargetBranch(context.gitRef, context.access, username) },
  });
  const { errors } = form.formState;
  useFollowRef(form, context, username);
  const empty = Boolean((context.project as { empty_repo?: boolean }).empty_repo);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    if (!staged.length) return setFormError('Stage at least one change first.');
    if (values.branch === context.gitRef && !context.access.canPushToRef) {
      return form.setError('branch', { type: 'permission', message: `You cannot push to ${context.gitRef}: name a new branch.` });
    }
    commit.mutate(
      {
        branch: values.branch,
        commit_message: values.commit_message,
        ...(!empty && values.branch !== context.gitRef ? { start_branch: context.gitRef } : {}),
        actions: commitActions(staged),
      },
      {
        onSuccess: (created) => {
          notify(`Committed ${formatCountOf(staged.length, 'change', 'changes')} to ${values.branch} (${created.short_id}).`);
          onCommitted();
          void navigate({ to: '/projects/$projectId/tree/$', params: { projectId: String(projectId), _splat: '' }, search: { ref: values.branch === context.gitRef ? urlRef : values.branch } });
        },
        onError: (error) => {
          const field = fileErrorField(error);
          if (field === 'branch' || field === 'commit_message') form.setError(field, { type: 'server', message: errorText(error) });
          else setFormError(errorText(error));
        },
      },
    );
  });
  return (
    <form className="form" noValidate onSubmit={submit} aria-label="Commit the staged changes">
      <h2>Commit</h2>
      <CommitFields register={form.register} errors={errors} gitRef={context.gitRef} access={context.access} disabled={commit.isPending} />
      <FormError message={formError} write={commit} />
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={commit.isPending || staged.length === 0} aria-busy={commit.isPending || undefined}>
          {commit.isPending ? 'Committing…' : `Commit ${formatCountOf(staged.length, 'change', 'changes')}`}
        </button>
      </div>
    </form>
  );
}
