import { useState } from 'react';
import { useFollowRef } from './use-follow-ref.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod/mini';
import { filesQueries, type RepositoryFile } from '../../api/files.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { normalizePath } from '../../api/params.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { Note } from '../../components/note.tsx';
import { useNotify } from '../../components/toast.tsx';
import { CommitFields, commitFieldsSchema, defaultTargetBranch } from './commit-fields.tsx';
import { fileErrorField, isStaleEditError, staleEditMessage } from './file-errors.ts';
import { FilesToolbar } from './files-toolbar.tsx';
import { Preparing } from './preparing.tsx';
import { useSaveFile } from './mutations.ts';
import { useFilesContext, type FilesContext } from './use-files-context.ts';

const editSchema = z.object({ content: z.string(), ...commitFieldsSchema });
type EditValues = z.output<typeof editSchema>;

const newSchema = z.object({
  file_path: z.string().check(
    z.trim(),
    z.minLength(1, 'Name the file'),
    z.refine((name) => !name.split('/').includes('..') && !name.endsWith('/'), 'A file name, optionally under directories (a/b.txt); no “..”'),
  ),
  content: z.string(),
  ...commitFieldsSchema,
  // empty: the file's name makes the message
  commit_message: z.string().check(z.trim()),
});
type NewValues = z.output<typeof newSchema>;

function Refused({ title, reason }: { title: string; reason: string | null }) {
  return (
    <section aria-labelledby="file-editor-heading">
      <h1 id="file-editor-heading">{title}</h1>
      <p className="notice" role="note">
        {reason ?? 'You cannot change files here.'}
      </p>
    </section>
  );
}

/** Edits a text file and commits it, to this branch or a new one; a moved branch is refused and the text kept. */
export function EditFileScreen({ projectId, path: rawPath, urlRef }: { projectId: number; path: string; urlRef: string }) {
  const path = normalizePath(rawPath);
  const connection = useConnection();
  const context = useFilesContext(projectId, urlRef);
  // the editor starts from the file as it is now, not from a cached copy: its last commit guards the save
  const file = useQuery({ ...filesQueries.file(connection, projectId, path, context.gitRef), refetchOnMount: 'always' });
  if (!context.ready) return <Preparing />;
  if (!context.access.canEdit) return <Refused title={`Edit ${path}`} reason={context.access.reason} />;
  if (file.isPending || (file.isFetching && !file.isFetchedAfterMount)) {
    return (
      <p className="state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading {path}…
      </p>
    );
  }
  if (!file.data) return <ErrorPanel error={file.error} onRetry={() => void file.refetch()} />;
  if (file.data.text === null) return <Refused title={`Edit ${path}`} reason="This is a binary file: it cannot be edited as text here." />;
  // another ref or file is another edit: start over from its content
  return <EditFileForm key={`${context.gitRef}\n${path}`} projectId={projectId} file={file.data} text={file.data.text} urlRef={urlRef} context={context} />;
}

function EditFileForm({ projectId, file, text, urlRef, context }: { projectId: number; file: RepositoryFile; text: string; urlRef: string; context: FilesContext }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const username = useActiveSession()?.connection.username;
  const save = useSaveFile(false);
  const [formError, setFormError] = useState<string | null>(null);
  // the file as it was when editing began: the platform refuses the commit if the branch moved since
  const [baseCommit] = useState(file.last_commit_id);
  const form = useForm<EditValues>({
    resolver: zodResolver(editSchema) as unknown as Resolver<EditValues>,
    defaultValues: { content: text, commit_message: `Update ${file.file_name}`, branch: defaultTargetBranch(context.gitRef, context.access, username) },
  });
  const { errors } = form.formState;
  const project = String(projectId);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    if (values.branch === context.gitRef && !context.access.canPushToRef) {
      form.setError('branch', { type: 'permission', message: `You cannot push to ${context.gitRef}: name a new branch.` });
      return;
    }
    save.mutate(
      {
        projectId,
        path: file.file_path,
        branch: values.branch,
        startBranch: values.branch !== context.gitRef ? context.gitRef : undefined,
        content: values.content,
        commitMessage: values.commit_message,
        lastCommitId: baseCommit,
      },
      {
        onSuccess: () => {
          notify(`Committed ${file.file_path} to ${values.branch}.`);
          void navigate({ to: '/projects/$projectId/blob/$', params: { projectId: project, _splat: file.file_path }, search: { ref: values.branch === context.gitRef ? urlRef : values.branch } });
        },
        onError: (error) => {
          if (isStaleEditError(error)) return setFormError(staleEditMessage(context.gitRef));
          const field = fileErrorField(error);
          if (field === 'branch' || field === 'commit_message' || field === 'content') form.setError(field, { type: 'server', message: errorText(error) });
          else setFormError(errorText(error));
        },
      },
    );
  });
  return (
    <section aria-labelledby="file-editor-heading" className="file-editor">
      <h1 id="file-editor-heading">Edit {file.file_name}</h1>
      <FilesToolbar projectId={projectId} projectName={context.project.path} gitRef={context.gitRef} urlRef={urlRef} path={file.file_path} />
      <Note>{context.access.reason}</Note>
      <form className="form" noValidate onSubmit={submit} aria-label={`Edit ${file.file_path}`}>
        <Field label="File content" error={errors.content?.message}>
          <textarea className="input file-editor__content" spellCheck={false} wrap="off" disabled={save.isPending} {...form.register('content')} />
        </Field>
        <CommitFields register={form.register} errors={errors} gitRef={context.gitRef} access={context.access} disabled={save.isPending} />
        <FormError message={formError} write={save} />
        <div className="dialog__actions">
          <Link className="button" to="/projects/$projectId/blob/$" params={{ projectId: project, _splat: file.file_path }} search={{ ref: urlRef }} disabled={save.isPending}>
            Cancel
          </Link>
          <button type="submit" className="button button--primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
            {save.isPending ? 'Committing…' : 'Commit changes'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Creates a file in a directory (or deeper, `sub/name.txt`) with one commit. */
export function NewFileScreen({ projectId, directory, urlRef }: { projectId: number; directory: string; urlRef: string }) {
  const context = useFilesContext(projectId, urlRef);
  if (!context.ready) return <Preparing />;
  if (!context.access.canEdit) return <Refused title="New file" reason={context.access.reason} />;
  return <NewFileForm projectId={projectId} directory={normalizePath(directory)} urlRef={urlRef} context={context} />;
}

function NewFileForm({ projectId, directory, urlRef, context }: { projectId: number; directory: string; urlRef: string; context: FilesContext }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const username = useActiveSession()?.connection.username;
  const save = useSaveFile(true);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<NewValues>({
    resolver: zodResolver(newSchema) as unknown as Resolver<NewValues>,
    defaultValues: { file_path: '', content: '', commit_message: '', branch: defaultTargetBranch(context.gitRef, context.access, username) },
  });
  const { errors } = form.formState;
  const project = String(projectId);
  useFollowRef(form, context, username);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    if (values.branch === context.gitRef && !context.access.canPushToRef) {
      form.setError('branch', { type: 'permission', message: `You cannot push to ${context.gitRef}: name a new branch.` });
      return;
    }
    const path = normalizePath(directory ? `${directory}/${values.file_path}` : values.file_path);
    const message = values.commit_message || `Add ${path.split('/').pop()}`;
    const empty = Boolean((context.project as { empty_repo?: boolean }).empty_repo);
    save.mutate(
      {
        projectId,
        path,
        branch: values.branch,
        // an empty repository has no branch to start from: the first commit starts it
        startBranch: !empty && values.branch !== context.gitRef ? context.gitRef : undefined,
        content: values.content,
        commitMessage: message,
      },
      {
        onSuccess: () => {
          notify(`Created ${path} on ${values.branch}.`);
          void navigate({ to: '/projects/$projectId/blob/$', params: { projectId: project, _splat: path }, search: { ref: values.branch === context.gitRef ? urlRef : values.branch } });
        },
        onError: (error) => {
          const field = fileErrorField(error);
          if (field) form.setError(field, { type: 'server', message: errorText(error) });
          else setFormError(errorText(error));
        },
      },
    );
  });
  return (
    <section aria-labelledby="file-editor-heading" className="file-editor">
      <h1 id="file-editor-heading">New file{directory ? ` in ${directory}` : ''}</h1>
      <FilesToolbar projectId={projectId} projectName={context.project.path} gitRef={context.gitRef} urlRef={urlRef} path={directory} />
      <Note>{context.access.reason}</Note>
      <form className="form" noValidate onSubmit={submit} aria-label="New file">
        <Field label="File name" error={errors.file_path?.message} hint={directory ? `Created in ${directory}/; add directories with “/”.` : 'Add directories with “/”, e.g. docs/notes.md.'}>
          <input className="input" spellCheck={false} autoComplete="off" disabled={save.isPending} {...form.register('file_path')} />
        </Field>
        <Field label="File content" error={errors.content?.message}>
          <textarea className="input file-editor__content" spellCheck={false} wrap="off" disabled={save.isPending} {...form.register('content')} />
        </Field>
        <Field label="Commit message" error={errors.commit_message?.message} hint="Empty: “Add <file name>”.">
          <textarea className="input" rows={3} disabled={save.isPending} {...form.register('commit_message')} />
        </Field>
        <CommitFields register={form.register} errors={errors} gitRef={context.gitRef} access={context.access} disabled={save.isPending} only="branch" />
        <FormError message={formError} write={save} />
        <div className="dialog__actions">
          <Link className="button" to="/projects/$projectId/tree/$" params={{ projectId: project, _splat: directory }} search={{ ref: urlRef }} disabled={save.isPending}>
            Cancel
          </Link>
          <button type="submit" className="button button--primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
            {save.isPending ? 'Committing…' : 'Commit new file'}
          </button>
        </div>
      </form>
    </section>
  );
}
