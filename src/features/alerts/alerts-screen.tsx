import type { ReactNode } from 'react';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { RoutePending } from '../../components/states.tsx';
import { useProjectPath } from './use-project-path.ts';

type AlertsLink = 'tester' | 'settings';

/**
 * The frame of the alerts screens: "<title> of <project>", links to the other alerts screens, and
 * the body once the project's full path (GraphQL's name for it) is known.
 */
export function AlertsScreen({ projectId, title, links, notice, children }: { projectId: number; title: string; links: readonly AlertsLink[]; notice?: ReactNode; children: (fullPath: string) => ReactNode }) {
  const { fullPath, name, error } = useProjectPath(projectId);
  const headingId = `${title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{name ? `${title} of ${name}` : title}</h1>
        <div className="alert-actions">
          {links.includes('tester') ? (
            <RouteLink to="/projects/$projectId/alerts/tester" params={{ projectId }} className="button">
              Alert tester
            </RouteLink>
          ) : null}
          {links.includes('settings') ? (
            <RouteLink to="/projects/$projectId/settings/alerts" params={{ projectId }} className="button">
              Alert integrations
            </RouteLink>
          ) : null}
        </div>
      </header>
      {notice}
      {fullPath ? children(fullPath) : error ? <ErrorPanel error={error} /> : <RoutePending />}
    </section>
  );
}
