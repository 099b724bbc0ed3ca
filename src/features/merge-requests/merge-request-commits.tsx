import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { usePrefetch } from '../../components/list-hooks.ts';
import { Paginator } from '../../components/paginator.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';

/** The Commits tab: what the source branch adds, newest first, each opening the commit's own screen. */
export function MergeRequestCommits({ projectId, iid, page: pageNumber }: { projectId: number; iid: number; page: number }) {
  const connection = useConnection();
  const page = useSuspenseQuery(mergeRequestsQueries.commits(connection, projectId, iid, pageNumber)).data;
  usePrefetch(page.nextPage ? mergeRequestsQueries.commits(connection, projectId, iid, page.nextPage) : null);
  return (
    <section aria-label="Commits">
      {page.items.length === 0 ? (
        <EmptyState title={pageNumber > 1 ? 'There are no more commits.' : 'This merge request has no commits.'}>
          <p>{pageNumber > 1 ? 'The list is shorter than this page.' : 'The source branch has nothing the target branch does not already have.'}</p>
        </EmptyState>
      ) : (
        <ol className="link-list" aria-label="Commits of the merge request">
          {page.items.map((commit) => (
            <li key={commit.id} className="commit-row">
              <Link to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: commit.id }}>
                {commit.title || commit.short_id}
              </Link>
              <div className="muted">
                {commit.author_name ?? 'Unknown author'} authored <Time value={commit.authored_date ?? commit.created_at} relative fallback="at an unknown time" /> · <code>{commit.short_id}</code>
              </div>
            </li>
          ))}
        </ol>
      )}
      {page.prevPage || page.nextPage ? <Paginator page={page} label="Commit pages" /> : null}
    </section>
  );
}
