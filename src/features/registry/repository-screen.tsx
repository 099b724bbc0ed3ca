import { useEffect, useId, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useConnection } from '../../api/react.ts';
import { isRepositoryDeleting, registryQueries, type RegistryRepository, type RegistryTag } from '../../api/registry.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Note } from '../../components/note.tsx';
import { RoutePending, EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller, type ProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { formatBytes, formatCount, formatCountOf } from '../../lib/numbers.ts';
import { maintainerRefusal, tagDeleteRefusal } from './permissions.ts';
import { RepositoryStatus, repositoryTitle } from './repository-cells.tsx';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

const loadDialogs = chunk(() => import('./registry-dialogs.tsx'));
const DeleteTagDialog = lazyPart(loadDialogs, (module) => module.DeleteTagDialog);
const TagDetailsDialog = lazyPart(loadDialogs, (module) => module.TagDetailsDialog);
// the rules engine (RE2) and the preview come only when the bulk delete opens
const BulkDelete = lazyPart(chunk(() => import('./bulk-delete.tsx')), (module) => module.default, <p role="status">Loading the bulk delete…</p>);

/** Tags a bulk delete was accepted for, and the count the image should come down to. */
export interface TagsGoing {
  names: ReadonlySet<string>;
  remaining: number;
}

/** A digest as people compare them: the algorithm and the first 12 hex digits. */
export function shortDigest(digest: string): string {
  const [algorithm, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest];
  return `${algorithm ? `${algorithm}:` : ''}${hex.slice(0, 12)}`;
}

/** One image: its facts, its tags page after page, tag details and deletes, and the bulk delete with its preview. */
export function RepositoryScreen({ projectId, repositoryId }: { projectId: number; repositoryId: number }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = pending ? '' : tagDeleteRefusal(caller);
  const bulkRefusal = pending ? '' : maintainerRefusal(caller, 'A bulk delete');
  const [bulkOpen, setBulkOpen] = useState(false);
  const [going, setGoing] = useState<TagsGoing | null>(null);
  const live = useLiveRefetch((repository: RegistryRepository) => isRepositoryDeleting(repository.status) || (going !== null && (repository.tags_count ?? 0) > going.remaining));
  const repository = useQuery({ ...registryQueries.repository(connection, repositoryId), refetchInterval: live });
  const count = repository.data?.tags_count;
  const tagsKey = registryQueries.tags(connection, projectId, repositoryId).queryKey;
  // while a bulk delete runs, each drop of the count refreshes the tags on screen
  useEffect(() => {
    if (!going || count === undefined) return;
    void queryClient.invalidateQueries({ queryKey: tagsKey });
    if (count <= going.remaining) setGoing(null);
  }, [count]);
  const headingId = useId();

  if (repository.isPending) return <RoutePending />;
  if (!repository.data) return <ErrorPanel error={repository.error} onRetry={() => void repository.refetch()} />;
  const image = repository.data;
  const pull = `docker pull ${image.location}`;
  return (
    <section className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{repositoryTitle(image)}</h1>
        <button type="button" className="button" aria-expanded={bulkOpen} disabled={bulkRefusal !== null} title={bulkRefusal || undefined} onClick={() => setBulkOpen((open) => !open)}>
          {bulkOpen ? 'Close the bulk delete' : 'Delete tags by rule'}
        </button>
      </header>
      <dl className="details">
        <dt>Pull</dt>
        <dd>
          <code>{pull}</code> <CopyButton text={pull} label="Copy the pull command of the image" />
        </dd>
        <dt>Tags</dt>
        <dd>{count === undefined ? 'Unknown' : formatCount(count)}</dd>
        <dt>Size</dt>
        <dd>{image.size === undefined || image.size === null ? 'Unknown' : formatBytes(image.size)}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={image.created_at} fallback="Unknown" />
        </dd>
        <dt>Status</dt>
        <dd>
          <RepositoryStatus repository={image} />
        </dd>
      </dl>
      <RoleUnread failure={failure} />
      <Note>{refusal ?? bulkRefusal}</Note>
      {going ? (
        <p className="notice" role="status">
          Deleting {formatCountOf(going.names.size, 'tag', 'tags')} in the background: {formatCount(Math.max(0, (count ?? going.remaining) - going.remaining))} still to go.
        </p>
      ) : null}
      {bulkOpen ? (
        <BulkDelete
          projectId={projectId}
          repository={image}
          caller={caller}
          onAccepted={(names) => {
            setGoing({ names, remaining: Math.max(0, (count ?? names.size) - names.size) });
            setBulkOpen(false);
          }}
        />
      ) : null}
      <TagList projectId={projectId} repositoryId={repositoryId} total={count} refusal={refusal} caller={caller} going={going} />
    </section>
  );
}

interface TagListProps {
  projectId: number;
  repositoryId: number;
  total: number | undefined;
  refusal: string | null;
  caller: ProjectCaller;
  going: TagsGoing | null;
}

function TagList({ projectId, repositoryId, total, refusal, caller, going }: TagListProps) {
  const connection = useConnection();
  const tags = useInfiniteQuery(registryQueries.tags(connection, projectId, repositoryId));
  const [details, setDetails] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  if (tags.isPending) return <RoutePending />;
  if (!tags.data) return <ErrorPanel error={tags.error} onRetry={() => void tags.refetch()} />;
  const rows = tags.data.pages.flatMap((page) => page.items);

  const columns: ColumnDef<RegistryTag>[] = [
    {
      id: 'name',
      header: 'Tag',
      cell: ({ row: { original: tag } }) => (
        <>
          <button type="button" className="button" aria-label={`Details of tag ${tag.name}`} onClick={() => setDetails(tag.name)}>
            {tag.name}
          </button>
          {going?.names.has(tag.name) ? <span className="badge"> Being deleted</span> : null}
        </>
      ),
    },
    {
      id: 'digest',
      header: 'Digest',
      cell: ({ row: { original: tag } }) =>
        tag.digest ? (
          <>
            <code title={tag.digest}>{shortDigest(tag.digest)}</code> <CopyButton text={tag.digest} label={`Copy the digest of ${tag.name}`} />
          </>
        ) : (
          <span className="muted">In details</span>
        ),
    },
    { id: 'size', header: 'Size', cell: ({ row: { original: tag } }) => (tag.total_size === null || tag.total_size === undefined ? '' : formatBytes(tag.total_size)) },
    { id: 'created', header: 'Created', cell: ({ row: { original: tag } }) => <Time value={tag.created_at} /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: tag } }) => (
        <button type="button" className="button button--danger-quiet" disabled={refusal !== null} title={refusal || undefined} aria-label={`Delete tag ${tag.name}`} onClick={() => setDeleting(tag.name)}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <>
      {tags.isError ? <ErrorPanel error={tags.error} onRetry={() => void tags.refetch()} /> : null}
      {rows.length === 0 ? (
        <EmptyState title="This image has no tags." />
      ) : (
        <DataTable
          caption="Tags"
          columns={columns}
          data={rows}
          getRowId={(tag) => tag.name}
          footer={
            <LoadMore
              summary={`${formatCount(rows.length)}${total === undefined ? '' : ` of ${formatCount(total)}`} tags`}
              hasMore={tags.hasNextPage}
              loading={tags.isFetchingNextPage}
              onLoadMore={() => void tags.fetchNextPage()}
            />
          }
        />
      )}
      {details ? <TagDetailsDialog projectId={projectId} repositoryId={repositoryId} tagName={details} onClose={() => setDetails(null)} /> : null}
      {deleting ? <DeleteTagDialog projectId={projectId} repositoryId={repositoryId} tagName={deleting} caller={caller} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
