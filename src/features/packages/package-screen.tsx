import { useState } from 'react';
import { keepPreviousData, useInfiniteQuery, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { downloadPackageFile, downloadRefusal, packageFilePath, packagesQueries, type PackageDetail, type PackageFile } from '../../api/packages.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { saveBlob } from '../../components/download.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { READ_ONLY_TOKEN } from '../../components/use-project-caller.ts';
import { formatBytes, formatCountOf } from '../../lib/numbers.ts';
import { installSteps } from './install.ts';
import { PackagePipelineLink, PackageStatusBadge, PackageTags, packageTypeLabel } from './package-bits.tsx';
import { PACKAGE_FILES_PER_PAGE } from './route-options.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// the confirmations load when one opens
const loadDialogs = chunk(() => import('./package-dialogs.tsx'));
const DeletePackageDialog = lazyPart(loadDialogs, (module) => module.DeletePackageDialog);
const DeleteFileDialog = lazyPart(loadDialogs, (module) => module.DeleteFileDialog);

interface PackageScreenProps {
  projectId: number;
  packageId: number;
  /** The page of the files list. */
  page: number;
}

/**
 * Why the caller may not delete this package or its files, or null. The platform names the delete
 * path only to those who may (spec 3, 2.6); a protection rule may still refuse a Maintainer (403).
 */
export function deleteRefusal(pkg: Pick<PackageDetail, '_links'>, canWrite: boolean): string | null {
  if (!canWrite) return READ_ONLY_TOKEN;
  if (!pkg._links.delete_api_path) return 'Only Maintainers and Owners of this project can delete packages and their files.';
  return null;
}

/** One package: what it is, how to install it, its files, its other versions and the pipelines that built it. */
export function PackageScreen({ projectId, packageId, page }: PackageScreenProps) {
  const connection = useConnection();
  const pkg = useSuspenseQuery(packagesQueries.detail(connection, projectId, packageId)).data;
  const project = useQuery(projectsQueries.detail(connection, projectId)).data;
  const canWrite = Boolean(useActiveSession()?.connection.canWrite);
  const refused = deleteRefusal(pkg, canWrite);
  const [deleting, setDeleting] = useState(false);
  const title = `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''}`;
  return (
    <section className="screen" aria-labelledby="package-heading">
      <header className="screen__header">
        <div>
          <p className="muted">
            <RouteLink to="/projects/$projectId/packages/" params={{ projectId }}>
              {project ? `Package registry of ${project.name_with_namespace}` : 'Package registry'}
            </RouteLink>
          </p>
          <h1 id="package-heading" className="breakable">
            {title}
          </h1>
        </div>
        <div className="row-actions">
          {refused ? (
            <span className="button" aria-disabled="true" title={refused}>
              Delete package
            </span>
          ) : (
            <button type="button" className="button button--danger-quiet" onClick={() => setDeleting(true)}>
              Delete package
            </button>
          )}
        </div>
      </header>
      {refused ? (
        <p className="notice" role="note">
          {refused}
        </p>
      ) : null}
      <dl className="details">
        <dt>Type</dt>
        <dd>{packageTypeLabel(pkg.package_type)}</dd>
        <dt>Status</dt>
        <dd>
          <PackageStatusBadge status={pkg.status} />
        </dd>
        <dt>Version</dt>
        <dd className="breakable">{pkg.version ?? <span className="muted">versionless</span>}</dd>
        {pkg.conan_package_name ? (
          <>
            <dt>Conan package</dt>
            <dd className="breakable">{pkg.conan_package_name}</dd>
          </>
        ) : null}
        <dt>Published</dt>
        <dd>
          <Time value={pkg.created_at} />
        </dd>
        <dt>Last downloaded</dt>
        <dd>
          <Time value={pkg.last_downloaded_at} fallback="never" />
        </dd>
        <dt>Tags</dt>
        <dd>
          <PackageTags tags={pkg.tags} />
        </dd>
      </dl>
      <InstallSection pkg={pkg} projectId={projectId} namespace={project?.namespace} instanceUrl={connection.instanceUrl} />
      <FilesSection pkg={pkg} projectId={projectId} page={page} refused={refused} />
      <VersionsSection pkg={pkg} projectId={projectId} />
      <PipelinesSection projectId={projectId} packageId={packageId} />
      {deleting ? (
        <DeletePackageDialog projectId={projectId} pkg={pkg} onClose={() => setDeleting(false)} />
      ) : null}
    </section>
  );
}

function InstallSection({ pkg, projectId, namespace, instanceUrl }: { pkg: PackageDetail; projectId: number; namespace?: { id: number; full_path: string }; instanceUrl: string }) {
  // the console may be served by the instance itself: the address the client reaches is this page's
  const base = instanceUrl || window.location.origin;
  const steps = installSteps(pkg, { instanceUrl: base, projectId, namespace });
  return (
    <section aria-labelledby="install-heading">
      <h2 id="install-heading">Installation</h2>
      {steps.length === 0 ? (
        <p className="muted">The platform gives no install instructions for {packageTypeLabel(pkg.package_type)} packages.</p>
      ) : (
        <>
          <p className="field__hint">Replace the placeholders (such as &lt;your_access_token&gt;) with your own values: no token is shown here.</p>
          {steps.map((step) => (
            <div key={step.title} className="field">
              <h3 className="field__label">{step.title}</h3>
              <div className="copy-row">
                <pre aria-label={step.title}>
                  <code>{step.text}</code>
                </pre>
                <CopyButton text={step.text} label={`Copy: ${step.title}`} />
              </div>
            </div>
          ))}
        </>
      )}
    </section>
  );
}

function FilesSection({ pkg, projectId, page, refused }: { pkg: PackageDetail; projectId: number; page: number; refused: string | null }) {
  const connection = useConnection();
  const files = useQuery({ ...packagesQueries.files(connection, projectId, pkg.id, { page, per_page: PACKAGE_FILES_PER_PAGE }), placeholderData: keepPreviousData });
  const [deleting, setDeleting] = useState<PackageFile | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const noDownload = downloadRefusal(pkg);

  const download = async (file: PackageFile, path: string) => {
    setDownloadError(null);
    setDownloading(file.id);
    try {
      saveBlob(await downloadPackageFile(connection, path), file.file_name);
    } catch (error) {
      setDownloadError(`${file.file_name} could not be downloaded: ${errorText(error)}`);
    } finally {
      setDownloading(null);
    }
  };

  const columns: ColumnDef<PackageFile>[] = [
    { id: 'name', header: 'Name', cell: ({ row: { original: file } }) => <BreakableText text={file.file_name} /> },
    { id: 'size', header: 'Size', cell: ({ row: { original: file } }) => (file.size === null || file.size === undefined ? <span className="muted">—</span> : formatBytes(file.size)) },
    {
      id: 'sha256',
      header: 'SHA-256',
      cell: ({ row: { original: file } }) =>
        file.file_sha256 ? (
          <div className="copy-row">
            <code title={file.file_sha256}>{file.file_sha256.slice(0, 12)}…</code>
            <CopyButton text={file.file_sha256} label={`Copy the SHA-256 of ${file.file_name}`} />
          </div>
        ) : (
          <span className="muted">—</span>
        ),
    },
    { id: 'created', header: 'Created', cell: ({ row: { original: file } }) => <Time value={file.created_at} relative /> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: file } }) => {
        const path = packageFilePath(projectId, pkg, file);
        return (
          <div className="row-actions">
            {path ? (
              <button type="button" className="button" disabled={downloading === file.id} aria-busy={downloading === file.id || undefined} aria-label={`Download ${file.file_name}`} onClick={() => void download(file, path)}>
                {downloading === file.id ? 'Downloading…' : 'Download'}
              </button>
            ) : (
              <span className="button" aria-disabled="true" title={noDownload}>
                Download
              </span>
            )}
            {refused ? null : (
              <button type="button" className="button button--danger-quiet" aria-label={`Delete ${file.file_name}`} onClick={() => setDeleting(file)}>
                Delete
              </button>
            )}
          </div>
        );
      },
    },
  ];

  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {downloadError ? (
        <div className="form-error" role="alert">
          {downloadError}
        </div>
      ) : null}
      <QueryStates query={files}>
        {(filesPage) => (
          <>
            {filesPage.items.length === 0 ? (
              <EmptyState title="This package has no files." />
            ) : (
              <DataTable caption="Files" columns={columns} data={filesPage.items} getRowId={(file) => String(file.id)} stale={files.isPlaceholderData} />
            )}
            <Paginator page={filesPage} label="Files pages" />
          </>
        )}
      </QueryStates>
      {deleting ? (
        <DeleteFileDialog projectId={projectId} pkg={pkg} file={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </section>
  );
}

function VersionsSection({ pkg, projectId }: { pkg: PackageDetail; projectId: number }) {
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Other versions</h2>
      {pkg.versions.length === 0 ? (
        <p className="muted">No other version of {pkg.name} in this project.</p>
      ) : (
        <ul aria-labelledby="versions-heading">
          {pkg.versions.map((version) => (
            <li key={version.id}>
              <RouteLink to="/projects/$projectId/packages/$packageId" params={{ projectId, packageId: version.id }} className="breakable">
                {version.version ?? 'versionless'}
              </RouteLink>{' '}
              <span className="muted">
                published <Time value={version.created_at} relative />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PipelinesSection({ projectId, packageId }: { projectId: number; packageId: number }) {
  const connection = useConnection();
  const pipelines = useInfiniteQuery(packagesQueries.pipelines(connection, projectId, packageId));
  const items = pipelines.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="pipelines-heading">
      <h2 id="pipelines-heading">Pipelines that built it</h2>
      {pipelines.isPending ? (
        <RoutePending />
      ) : pipelines.isError && !items.length ? (
        <ErrorPanel error={pipelines.error} onRetry={() => void pipelines.refetch()} />
      ) : items.length === 0 ? (
        <p className="muted">No pipeline built this package (it was published by hand or by a client).</p>
      ) : (
        <>
          {pipelines.isError ? <ErrorPanel error={pipelines.error} onRetry={() => void pipelines.fetchNextPage()} /> : null}
          <ul aria-labelledby="pipelines-heading">
            {items.map((pipeline) => (
              <li key={pipeline.id}>
                <PackagePipelineLink projectId={projectId} pipeline={pipeline} /> <span className="breakable">{pipeline.ref ?? ''}</span>{' '}
                {pipeline.sha ? <code>{pipeline.sha.slice(0, 8)}</code> : null}{' '}
                <span className="muted">
                  <Time value={pipeline.created_at} relative />
                  {pipeline.user?.name ? ` by ${pipeline.user.name}` : ''}
                </span>
              </li>
            ))}
          </ul>
          <LoadMore
            summary={formatCountOf(items.length, 'pipeline', 'pipelines')}
            hasMore={pipelines.hasNextPage}
            loading={pipelines.isFetchingNextPage}
            onLoadMore={() => void pipelines.fetchNextPage()}
          />
        </>
      )}
    </section>
  );
}
