import type { RegistryRepository } from '../../api/registry.ts';
import { Time } from '../../components/time.tsx';

/** An image by its path: the root image has no name of its own. */
export function repositoryTitle(repository: Pick<RegistryRepository, 'name' | 'path'>): string {
  return repository.name ? repository.path : `${repository.path} (root image)`;
}

const DELETE_STATES: Record<string, string> = {
  delete_scheduled: 'Delete scheduled…',
  delete_ongoing: 'Deleting…',
  delete_failed: 'Delete failed',
};

/** A delete under way (followed live), a failed one, or the cleanup policy at work. */
export function RepositoryStatus({ repository }: { repository: Pick<RegistryRepository, 'status' | 'cleanup_policy_started_at'> }) {
  if (repository.status) {
    const failed = repository.status === 'delete_failed';
    return (
      <span className={failed ? 'badge badge--warning' : 'badge'} role="status">
        {DELETE_STATES[repository.status] ?? repository.status}
      </span>
    );
  }
  if (repository.cleanup_policy_started_at) {
    return (
      <span>
        Cleanup running, started <Time value={repository.cleanup_policy_started_at} relative />
      </span>
    );
  }
  return <span className="muted">Ready</span>;
}
