import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { EmptyState } from '../../components/states.tsx';

/** Where the user lands: their groups and most recently active projects. */
export function HomeScreen() {
  const connection = useConnection();
  const active = useActiveSession();
  const groups = useSuspenseQuery(groupsQueries.search(connection, ''));
  const projects = useSuspenseQuery(projectsQueries.search(connection, ''));
  return (
    <div className="home">
      <h1>Welcome, {active?.connection.name}</h1>
      <div className="home__columns">
        <section aria-labelledby="home-groups">
          <h2 id="home-groups">Your groups</h2>
          {groups.data.items.length === 0 ? <EmptyState title="You are not a member of any group yet." /> : null}
          <ul className="link-list">
            {groups.data.items.map((group) => (
              <li key={group.id}>
                <Link to="/groups/$groupId/members" params={{ groupId: String(group.id) }}>
                  {group.full_name}
                </Link>
                <span className="muted"> {group.visibility}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="home-projects">
          <h2 id="home-projects">Your projects</h2>
          {projects.data.items.length === 0 ? <EmptyState title="You are not a member of any project yet." /> : null}
          <ul className="link-list">
            {projects.data.items.map((project) => (
              <li key={project.id}>
                <Link to="/projects/$projectId/members" params={{ projectId: String(project.id) }}>
                  {project.name_with_namespace}
                </Link>
                <span className="muted"> {project.visibility}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
