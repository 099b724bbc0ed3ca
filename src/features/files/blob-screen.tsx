import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { commitsQueries } from '../../api/commits.ts';
import { fetchRawFile, filesQueries, type FileView, type RepositoryFile } from '../../api/files.ts';
import { useConnection } from '../../api/react.ts';
import { fetchTreePage, parentDirectory } from '../../api/repository.ts';
import { normalizePath } from '../../api/params.ts';
import { ApiError } from '../../api/errors.ts';
import type { Connection } from '../../api/http.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { Time } from '../../components/time.tsx';
import { CodeView, splitLines } from './code-view.tsx';
import { saveBlob } from '../../components/download.ts';
import { Note } from '../../components/note.tsx';
import { formatBytes, imageTypeFor } from './file-kind.ts';
import { FilesToolbar } from './files-toolbar.tsx';
import { useFilesContext, type FilesContext } from './use-files-context.ts';
import { formatCount } from '../../lib/numbers.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

const loadDeleteDialog = chunk(() => import('./delete-file-dialog.tsx'));
const DeleteFileDialog = lazyPart(loadDeleteDialog, (module) => module.DeleteFileDialog);

/** One file at a ref: size, last commit, the content (code, image or a binary notice), download, blame, edit, delete. */
export function BlobScreen({ projectId, path: rawPath, urlRef }: { projectId: number; path: string; urlRef: string }) {
  const path = normalizePath(rawPath);
  const connection = useConnection();
  const context = useFilesContext(projectId, urlRef);
  const { project, gitRef } = context;
  const file = useQuery(filesQueries.view(connection, projectId, path, gitRef));
  const name = path.split('/').pop() ?? path;
  return (
    <section aria-labelledby="blob-heading">
      <header className="screen__header">
        <h1 id="blob-heading">{name}</h1>
        {file.data ? <FileActions projectId={projectId} file={file.data} path={path} urlRef={urlRef} context={context} /> : null}
      </header>
      <FilesToolbar projectId={projectId} projectName={project.path} gitRef={gitRef} urlRef={urlRef} path={path} />
      <Note>{context.access.reason}</Note>
      {file.isPending ? (
        <p className="state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading {name}…
        </p>
      ) : file.isError ? (
        <ErrorPanel error={file.error} onRetry={() => void file.refetch()} />
      ) : (
        <>
          <FileFacts projectId={projectId} file={file.data} />
          <FilePreview file={file.data} />
        </>
      )}
    </section>
  );
}

function FileFacts({ projectId, file }: { projectId: number; file: FileView }) {
  const connection = useConnection();
  const commit = useQuery({ ...commitsQueries.detail(connection, projectId, file.last_commit_id), staleTime: Infinity });
  return (
    <dl className="details">
      <dt>Size</dt>
      <dd>
        {formatBytes(file.size)}
        {file.text !== null ? `, ${formatCount(splitLines(file.text).length)} lines` : ''}
      </dd>
      <dt>Last commit</dt>
      <dd>
        {commit.data ? (
          <>
            {commit.data.title} <span className="muted">by {commit.data.author_name ?? 'unknown'}</span>,{' '}
            <Time value={commit.data.committed_date} relative fallback="at an unknown time" />{' '}
            <code className="muted">{commit.data.short_id}</code>
          </>
        ) : commit.isError ? (
          <>
            <code>{file.last_commit_id.slice(0, 11)}</code> <span className="muted">({errorText(commit.error)})</span>
          </>
        ) : (
          <code>{file.last_commit_id.slice(0, 11)}</code>
        )}
      </dd>
    </dl>
  );
}

function FilePreview({ file }: { file: FileView }) {
  const imageType = imageTypeFor(file.file_name);
  if (file.tooLarge) {
    return (
      <p className="file-preview" role="note">
        This file is too large to show here ({formatBytes(file.size)}). Use Download to get it.
      </p>
    );
  }
  // bytes named like an image that the browser cannot draw are shown as the binary they are
  const [unreadable, setUnreadable] = useState(false);
  if (imageType && file.text === null && !unreadable) return <ImagePreview file={file} type={imageType} onUnreadable={() => setUnreadable(true)} />;
  if (file.text === null) {
    return (
      <p className="file-preview" role="note">
        Binary file, {formatCount(file.size)} bytes. Use Download to get it.
      </p>
    );
  }
  return <CodeView text={file.text} fileName={file.file_name} />;
}

/** The picture from the bytes already fetched, through a blob URL freed when it leaves the screen. */
function ImagePreview({ file, type, onUnreadable }: { file: RepositoryFile; type: string; onUnreadable: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const objectUrl = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file.bytes, type]);
  return <div className="file-preview">{url ? <img src={url} alt={file.file_name} onError={onUnreadable} /> : null}</div>;
}

function FileActions({ projectId, file, path, urlRef, context }: { projectId: number; file: FileView; path: string; urlRef: string; context: FilesContext }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const notify = useNotify();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  usePreloadWhenIdle(loadDeleteDialog, context.access.canEdit);
  const project = String(projectId);
  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      saveBlob(await fetchRawFile(connection, projectId, path, context.gitRef), file.file_name);
    } catch (error) {
      setDownloadError(`The download failed: ${errorText(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="row-actions">
      <button type="button" className="button" onClick={() => void download()} disabled={downloading} aria-busy={downloading || undefined}>
        {downloading ? 'Downloading…' : 'Download'}
      </button>
      <Link className="button" to="/projects/$projectId/blame/$" params={{ projectId: project, _splat: path }} search={{ ref: urlRef }}>
        Blame
      </Link>
      {context.access.canEdit && !file.tooLarge && file.text !== null ? (
        <Link className="button" to="/projects/$projectId/edit/$" params={{ projectId: project, _splat: path }} search={{ ref: urlRef }}>
          Edit
        </Link>
      ) : null}
      {context.access.canEdit ? (
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
          Delete
        </button>
      ) : null}
      {downloadError ? (
        <span className="form-error" role="alert">
          {downloadError}
        </span>
      ) : null}
      {deleting ? (
        <DeleteFileDialog
          projectId={projectId}
          file={file}
          context={context}
          onClose={() => setDeleting(false)}
          onDeleted={async (branch) => {
            notify(`Deleted ${path} on ${branch}.`);
            const directory = await existingDirectory(connection, projectId, parentDirectory(path), branch);
            void navigate({ to: '/projects/$projectId/tree/$', params: { projectId: project, _splat: directory }, search: { ref: branch === context.gitRef ? urlRef : branch } });
          }}
        />
      ) : null}
    </div>
  );
}

/** The nearest directory that still exists: deleting a directory's last file removes the directory too. */
async function existingDirectory(connection: Connection, projectId: number, directory: string, ref: string): Promise<string> {
  for (let candidate = directory; candidate; candidate = parentDirectory(candidate)) {
    try {
      await fetchTreePage(connection, projectId, { path: candidate, ref }, null);
      return candidate;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return candidate;
    }
  }
  return '';
}
