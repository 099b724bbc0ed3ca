import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { accessTokensQueries } from '../../api/access-tokens.ts';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { runnersQueries } from '../../api/runners.ts';
import { usersQueries } from '../../api/users.ts';
import { errorText } from '../../components/error-panel.tsx';
import { EmptyState } from '../../components/states.tsx';
import { formatDate } from '../../lib/time.ts';
import { LISTED, SOON_DAYS, soonDay } from './home-queries.ts';
import { formatCount } from '../../lib/numbers.ts';
import { RouteLink } from '../../components/route-link.tsx';

/** One count of the overview: its own request, so a slow or failed one holds nothing else back. */
function Count({ label, query, to, search }: { label: string; query: UseQueryResult<number | null>; to?: '/users/' | '/groups/' | '/projects/' | '/admin/runners'; search?: Record<string, string> }) {
  const value = query.isPending ? '…' : query.isError ? 'Not available' : query.data === null ? 'Over 10,000' : formatCount(query.data);
  const body = (
    <>
      <span className="stat__value">{value}</span>
      <span className="stat__label">{label}</span>
    </>
  );
  return (
    <li className="stat" title={query.isError ? errorText(query.error) : undefined}>
      {to ? (
        <RouteLink to={to} search={search} className="stat__body">
          {body}
        </RouteLink>
      ) : (
        <div className="stat__body">{body}</div>
      )}
    </li>
  );
}

/** Administrators: the instance at a glance, each figure the `x-total` of a one-row page. */
export function InstanceOverview() {
  const connection = useConnection();
  const users = useQuery(usersQueries.count(connection));
  const groups = useQuery(groupsQueries.count(connection));
  const projects = useQuery(projectsQueries.count(connection));
  const runners = useQuery(runnersQueries.count(connection, 'instance', { status: 'online' }));
  // the instance's personal access tokens: one request, where the expiry overview walks every group
  const tokens = useQuery({ ...accessTokensQueries.personalExpiring(connection, { before: soonDay(), per_page: 1 }), select: (page) => page.total ?? null });
  return (
    <section aria-labelledby="home-instance">
      <h2 id="home-instance">Instance overview</h2>
      <ul className="stats">
        <Count label="Users" query={users} to="/users/" />
        <Count label="Groups" query={groups} to="/groups/" />
        <Count label="Projects" query={projects} to="/projects/" search={{ archived: 'include' }} />
        <Count label="Runners online" query={runners} to="/admin/runners" search={{ status: 'online' }} />
        <Count label={`Personal access tokens expiring within ${SOON_DAYS} days`} query={tokens} />
      </ul>
    </section>
  );
}

/** The user's own tokens that stop working within 30 days: what needs them before it breaks something. */
export function NeedsYou({ userId }: { userId: number }) {
  const connection = useConnection();
  const tokens = useQuery(accessTokensQueries.personalExpiring(connection, { userId, before: soonDay(), per_page: LISTED }));
  return (
    <section aria-labelledby="home-attention">
      <h2 id="home-attention">Needs your attention</h2>
      {tokens.isPending ? <p className="muted">Loading…</p> : null}
      {tokens.isError ? <p role="alert">{errorText(tokens.error)}</p> : null}
      {tokens.data && tokens.data.items.length === 0 ? <EmptyState title={`None of your personal access tokens expires within ${SOON_DAYS} days.`} /> : null}
      {tokens.data && tokens.data.items.length > 0 ? (
        <>
          <p>Your personal access tokens expiring within {SOON_DAYS} days:</p>
          <ul className="link-list" aria-label="Your tokens expiring soon">
            {tokens.data.items.map((token) => (
              <li key={token.id}>
                <strong>{token.name}</strong> <span className="muted">expires {token.expires_at ? formatDate(token.expires_at) : 'never'}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        <RouteLink to="/access-tokens/expiry">Token expiry of the groups you own</RouteLink>
      </p>
    </section>
  );
}
