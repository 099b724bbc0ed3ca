import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { useConnection } from '../../api/react.ts';
import { registryQueries, type RegistryRepository, type TagProtectionRule } from '../../api/registry.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { Time } from '../../components/time.tsx';
import { useNotify } from '../../components/toast.tsx';
import { formatBytes, formatCount } from '../../lib/numbers.ts';
import { useDeleteRepository, useDeleteTag } from './mutations.ts';
import { mayReadRules, protectionMatcher, type ProtectionCaller } from './protection.ts';
import { repositoryTitle } from './repository-cells.tsx';

/** Deletes an image with all its tags; the list then follows its removal, which runs in the background. */
export function DeleteRepositoryDialog({ projectId, repository, onClose }: { projectId: number; repository: RegistryRepository; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeleteRepository();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete image ${repositoryTitle(repository)}?`}
      description={
        <>
          Every tag of {repository.path}
          {repository.tags_count === undefined ? '' : ` (${formatCount(repository.tags_count)})`} is deleted. The removal runs in the background; the list shows it until the
          image is gone. It cannot be undone.
        </>
      }
      confirmLabel="Delete image"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { projectId, repositoryId: repository.id },
          {
            onSuccess: () => {
              notify(`Deleting image ${repository.path}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

interface TagDialogProps {
  projectId: number;
  repositoryId: number;
  tagName: string;
  onClose: () => void;
}

/** Deletes one tag; a 403 from a protection rule says which rule and why. */
export function DeleteTagDialog({ projectId, repositoryId, tagName, caller, onClose }: TagDialogProps & { caller: ProtectionCaller }) {
  const connection = useConnection();
  const notify = useNotify();
  const remove = useDeleteTag();
  const refused = remove.error instanceof ApiError && remove.error.status === 403;
  const rules = useQuery({ ...registryQueries.protectionRules(connection, projectId), enabled: refused && mayReadRules(caller) });
  const [rule, setRule] = useState<TagProtectionRule | null>(null);
  useEffect(() => {
    if (!refused || !rules.data) return;
    let current = true;
    void protectionMatcher(rules.data, caller).then((match) => current && setRule(match(tagName) ?? null));
    return () => {
      current = false;
    };
  }, [refused, rules.data, tagName]);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete tag ${tagName}?`}
      description={<>The tag {tagName} is removed from the image. Other tags of the same manifest stay; its layers are reclaimed by garbage collection.</>}
      confirmLabel="Delete tag"
      destructive
      write={remove}
      error={
        remove.error ? (
          <>
            <p>{errorText(remove.error)}</p>
            {refused && rule ? (
              <p>
                Protected by the rule {rule.tag_name_pattern}: deleting needs the {rule.minimum_access_level_for_delete ?? 'higher'} role or above.
              </p>
            ) : null}
          </>
        ) : null
      }
      onConfirm={() =>
        remove.mutate(
          { projectId, repositoryId, tagName },
          {
            onSuccess: () => {
              notify(`Deleted tag ${tagName}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

/** A tag's manifest: digest, revision, size, creation, and where to pull it from. */
export function TagDetailsDialog({ projectId, repositoryId, tagName, onClose }: TagDialogProps) {
  const connection = useConnection();
  const details = useQuery(registryQueries.tag(connection, projectId, repositoryId, tagName));
  const tag = details.data;
  const pull = tag ? `docker pull ${tag.location}` : '';
  return (
    <Dialog open onOpenChange={(next) => (!next ? onClose() : undefined)} title={`Tag ${tagName}`}>
      {details.isPending ? (
        <p role="status">Loading the tag…</p>
      ) : !tag ? (
        <ErrorPanel error={details.error} onRetry={() => void details.refetch()} />
      ) : (
        <dl className="details">
          <dt>Digest</dt>
          <dd>
            <code>{tag.digest ?? 'Unknown'}</code> {tag.digest ? <CopyButton text={tag.digest} label={`Copy the digest of ${tagName}`} /> : null}
          </dd>
          <dt>Revision</dt>
          <dd>
            <code>{tag.revision ?? 'Unknown'}</code>
          </dd>
          <dt>Total size</dt>
          <dd>{tag.total_size === null || tag.total_size === undefined ? 'Unknown' : formatBytes(tag.total_size)}</dd>
          <dt>Created</dt>
          <dd>
            <Time value={tag.created_at} fallback="Unknown" />
          </dd>
          <dt>Pull</dt>
          <dd>
            <code>{pull}</code> <CopyButton text={pull} label={`Copy the pull command of ${tagName}`} />
          </dd>
        </dl>
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
