import type { ReactNode } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { RouteLink } from '../../components/route-link.tsx';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { homeQueries } from './home-queries.ts';
import { chunk, lazyPart } from '../../components/lazy-part.ts';

// the overview and the tokens each wait for their own requests: their code (runners, tokens) comes with them, after the lists
const loadPanels = chunk(() => import('./home-panels.tsx'));
const InstanceOverview = lazyPart(loadPanels, (module) => module.InstanceOverview, <RoutePending />);
const NeedsYou = lazyPart(loadPanels, (module) => module.NeedsYou, <RoutePending />);

function LinkList({ id, title, all, empty, children }: { id: string; title: string; all: ReactNode; empty: string | null; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {empty ? <EmptyState title={empty} /> : <ul className="link-list">{children}</ul>}
      <p>{all}</p>
    </section>
  );
}

/** Where the user lands: the instance overview for administrators; everyone's groups, projects and what needs them. */
export function HomeScreen() {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const groups = useSuspenseQuery(homeQueries.groups(connection)).data;
  const projects = useSuspenseQuery(homeQueries.projects(connection)).data;
  return (
    <div className="home">
      <h1>Welcome, {me?.name}</h1>
      {me?.isAdmin ? (
        <InstanceOverview />
      ) : null}
      <div className="home__columns">
        <LinkList id="home-groups" title="Your groups" empty={groups.items.length === 0 ? 'You are not a member of any group yet.' : null} all={<RouteLink to="/groups/">{me?.isAdmin ? 'All groups' : 'All your groups'}</RouteLink>}>
          {groups.items.map((group) => (
            <li key={group.id}>
              <RouteLink to="/groups/$groupId/members" params={{ groupId: group.id }}>
                {group.full_name}
              </RouteLink>
              <span className="muted"> {group.visibility}</span>
            </li>
          ))}
        </LinkList>
        <LinkList
          id="home-projects"
          title="Your projects"
          empty={projects.items.length === 0 ? 'You are not a member of any project yet.' : null}
          all={<RouteLink to="/projects/">{me?.isAdmin ? 'All projects' : 'All your projects'}</RouteLink>}
        >
          {projects.items.map((project) => (
            <li key={project.id}>
              <RouteLink to="/projects/$projectId/members" params={{ projectId: project.id }}>
                {project.name_with_namespace}
              </RouteLink>
              <span className="muted"> {project.visibility}</span>
            </li>
          ))}
        </LinkList>
        {me ? (
          <NeedsYou userId={me.userId} />
        ) : null}
      </div>
    </div>
  );
}
