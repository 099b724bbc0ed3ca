import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useRouter } from '@tanstack/react-router';
import { groupsQueries } from '../../api/groups.ts';
import { membersQueries } from '../../api/members.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ContextSwitcherOnDemand, UserMenuOnDemand, preloadMenus } from './deferred-menus.tsx';
import { RateLimitStatus } from '../../components/rate-limit-status.tsx';

function AreaNav() {
  const connection = useConnection();
  const params = useParams({ strict: false }) as { groupId?: string; projectId?: string };
  const groupId = params.groupId ? Number(params.groupId) : undefined;
  const projectId = params.projectId ? Number(params.projectId) : undefined;
  const group = useQuery({ ...groupsQueries.detail(connection, groupId ?? 0), enabled: groupId !== undefined });
  const active = useActiveSession();
  // group areas that only Owners may open are listed for Owners (and administrators) only
  const groupAccess = useQuery({ ...membersQueries.myAccess(connection, { group: groupId ?? 0 }, active?.connection.userId ?? 0), enabled: groupId !== undefined && !active?.connection.isAdmin });
  const groupOwner = Boolean(active?.connection.isAdmin) || (groupAccess.data ?? 0) >= 50;
  const project = useQuery({ ...projectsQueries.detail(connection, projectId ?? 0), enabled: projectId !== undefined });
  return (
    <nav aria-label="Areas" className="area-nav">
      <Link to="/" activeOptions={{ exact: true }}>
        Home
      </Link>
      <Link to="/users">People</Link>
      <Link to="/access-tokens/expiry">Token expiry</Link>
      {active?.connection.isBot ? <Link to="/access-tokens/self">This token</Link> : null}
      {active?.connection.isAdmin ? (
        // instance areas are for administrators only
        <span className="area-nav__group" role="group" aria-label="Instance">
          <span className="area-nav__context">Instance</span>
          <Link to="/admin/runners">Runners</Link>
          <Link to="/admin/service-accounts">Service accounts</Link>
          <Link to="/admin/hooks">System hooks</Link>
          <Link to="/admin/storage-moves">Storage moves</Link>
          <Link to="/admin/deploy-keys">Deploy keys</Link>
        </span>
      ) : null}
      {groupId !== undefined ? (
        <>
          <span className="area-nav__context" title={group.data?.full_path}>
            {group.data?.full_name ?? 'Group'}
          </span>
          <Link to="/groups/$groupId/members" params={{ groupId: String(groupId) }}>
            Members
          </Link>
          {groupOwner && group.data && group.data.parent_id === null ? (
            <Link to="/groups/$groupId/billable-members" params={{ groupId: String(groupId) }}>
              Billable members
            </Link>
          ) : null}
          {groupOwner ? (
            <Link to="/groups/$groupId/access-tokens" params={{ groupId: String(groupId) }}>
              Access tokens
            </Link>
          ) : null}
          {groupOwner && group.data && group.data.parent_id === null ? (
            <Link to="/groups/$groupId/service-accounts" params={{ groupId: String(groupId) }}>
              Service accounts
            </Link>
          ) : null}
          {groupOwner ? (
            <Link to="/groups/$groupId/runners" params={{ groupId: String(groupId) }}>
              Runners
            </Link>
          ) : null}
        </>
      ) : null}
      {projectId !== undefined ? (
        <>
          <span className="area-nav__context" title={project.data?.path_with_namespace}>
            {project.data?.name_with_namespace ?? 'Project'}
          </span>
          <Link to="/projects/$projectId/members" params={{ projectId: String(projectId) }}>
            Members
          </Link>
          <Link to="/projects/$projectId/tree/$" params={{ projectId: String(projectId), _splat: '' }}>
            Files
          </Link>
          <Link to="/projects/$projectId/commits" params={{ projectId: String(projectId) }}>
            Commits
          </Link>
          <Link to="/projects/$projectId/branches" params={{ projectId: String(projectId) }}>
            Branches
          </Link>
          <Link to="/projects/$projectId/runners" params={{ projectId: String(projectId) }}>
            Runners
          </Link>
          <Link to="/projects/$projectId/deploy-keys" params={{ projectId: String(projectId) }}>
            Deploy keys
          </Link>
        </>
      ) : null}
    </nav>
  );
}


// the areas a session goes to next; their code is fetched while the browser is idle
const LIKELY_ROUTES = ['/groups/$groupId/members', '/groups/$groupId/access-tokens', '/groups/$groupId/service-accounts', '/projects/$projectId/members', '/groups/$groupId/billable-members', '/users/', '/users/$userId'] as const;

/** Loads the likely areas' code once the shell is idle, so a first visit waits only for data. */
function usePreloadLikelyAreas() {
  const router = useRouter();
  useEffect(() => {
    const load = () => {
      preloadMenus();
      for (const id of LIKELY_ROUTES) void router.loadRouteChunk(router.routesById[id]);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(load, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(load, 200);
    return () => clearTimeout(timer);
  }, [router]);
}

export function AppShell({ children }: { children: ReactNode }) {
  usePreloadLikelyAreas();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <Link to="/" className="brand">
          Platform Console
        </Link>
        <ContextSwitcherOnDemand />
        <RateLimitStatus />
        <UserMenuOnDemand />
      </header>
      <AreaNav />
      <main id="main" className="shell__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
