import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { runnersQueries, type Runner } from '../../api/runners.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useIdleSinceMount } from '../../components/list-hooks.ts';
import { RunnerStatus } from './runner-badges.tsx';
import { useAssignRunner } from './mutations.ts';

/**
 * A project's Maintainers enable here the project runners they own in other projects, as the
 * platform's CI/CD settings offer ("other available runners"). Read once the fleet is painted.
 */
export function AssignableRunners({ projectId }: { projectId: number }) {
  const connection = useConnection();
  const idle = useIdleSinceMount();
  const owned = useInfiniteQuery({ ...runnersQueries.ownedProjectRunners(connection), enabled: idle });
  const assign = useAssignRunner();
  const notify = useNotify();
  const here = useQuery({ ...runnersQueries.projectRunnerIds(connection, projectId), enabled: idle });
  if (!owned.data || !here.data) {
    return owned.error || here.error ? (
      <section aria-labelledby="assignable-runners-heading">
        <h2 id="assignable-runners-heading">Your other project runners</h2>
        <p role="alert">{errorText(owned.error ?? here.error)}</p>
      </section>
    ) : null;
  }
  const read = owned.data.pages.flatMap((page) => page.items);
  const offered = read.filter((runner) => !here.data.has(runner.id));
  return (
    <section aria-labelledby="assignable-runners-heading">
      <h2 id="assignable-runners-heading">Your other project runners</h2>
      {offered.length === 0 && owned.hasNextPage ? (
        <p className="muted">None among the first {formatCount(read.length)}: each already serves this project.</p>
      ) : offered.length === 0 ? (
        <p className="muted">None: every project runner you own already serves this project, or you own none elsewhere.</p>
      ) : (
        <ul className="link-list" aria-label="Your other project runners">
          {offered.map((runner) => (
            <li key={runner.id}>
              <RouteLink to="/runners/$runnerId" params={{ runnerId: runner.id }}>
                {runnerName(runner)}
              </RouteLink>{' '}
              <RunnerStatus runner={runner} />{' '}
              <button
                type="button"
                className="button"
                aria-label={`Assign runner ${runnerName(runner)} to this project`}
                disabled={assign.isPending}
                // the row leaves the list once assigned: the screen, which stays, says so
                onClick={() => assign.mutate({ runnerId: runner.id, projectId }, { onSuccess: () => notify(`Runner ${runnerName(runner)} now serves this project.`) })}
              >
                Assign to this project
              </button>
            </li>
          ))}
        </ul>
      )}
      {assign.error ? (
        <p role="alert" className="form-error">
          Runner #{assign.variables?.runnerId} was not assigned: {errorText(assign.error)}
        </p>
      ) : null}
      {owned.isFetchNextPageError ? <ErrorPanel error={owned.error} onRetry={() => void owned.fetchNextPage()} /> : null}
      {/* most own a handful: the count and the button only once there is more than one page */}
      {owned.hasNextPage || owned.data.pages.length > 1 ? (
        <LoadMore
          summary={`${formatCount(read.length)} of your project runners read`}
          hasMore={owned.hasNextPage}
          loading={owned.isFetchingNextPage}
          onLoadMore={() => void owned.fetchNextPage()}
        />
      ) : null}
    </section>
  );
}

const runnerName = (runner: Runner) => `#${runner.id}${runner.description ? ` ${runner.description}` : ''}`;
