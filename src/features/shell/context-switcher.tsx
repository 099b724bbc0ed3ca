import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { SearchInput } from '../../components/list-controls.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { SwitcherTrigger } from './deferred-menus.tsx';
import { RouteLink } from '../../components/route-link.tsx';

/** Pick a group or project by search among those the user belongs to. */
export function ContextSwitcher({ defaultOpen }: { defaultOpen: boolean }) {
  const connection = useConnection();
  const [open, setOpen] = useState(defaultOpen);
  const [search, setSearch] = useState('');
  // an administrator may belong to nothing, and manages everything
  const everywhere = Boolean(useActiveSession()?.connection.isAdmin);
  const groups = useQuery({ ...groupsQueries.search(connection, search, everywhere), enabled: open, placeholderData: keepPreviousData });
  const projects = useQuery({ ...projectsQueries.search(connection, search, everywhere), enabled: open, placeholderData: keepPreviousData });
  const close = () => setOpen(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <SwitcherTrigger />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover context-switcher" align="start" sideOffset={6} aria-label="Switch group or project">
          <SearchInput label="Search groups and projects" value={search} onSearch={setSearch} placeholder="Search your groups and projects" delayMs={200} />
          <div className="context-switcher__lists">
            <section aria-labelledby="switcher-groups">
              <h2 id="switcher-groups">Groups</h2>
              {groups.error ? <p role="alert">{errorText(groups.error)}</p> : null}
              {groups.data && groups.data.items.length === 0 ? <p className="muted">No groups match.</p> : null}
              <ul>
                {groups.data?.items.map((group) => (
                  <li key={group.id}>
                    <RouteLink to="/groups/$groupId/members" params={{ groupId: group.id }} onClick={close}>
                      {group.full_name}
                    </RouteLink>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="switcher-projects">
              <h2 id="switcher-projects">Projects</h2>
              {projects.error ? <p role="alert">{errorText(projects.error)}</p> : null}
              {projects.data && projects.data.items.length === 0 ? <p className="muted">No projects match.</p> : null}
              <ul>
                {projects.data?.items.map((project) => (
                  <li key={project.id}>
                    <RouteLink to="/projects/$projectId/members" params={{ projectId: project.id }} onClick={close}>
                      {project.name_with_namespace}
                    </RouteLink>
                  </li>
                ))}
              </ul>
            </section>
          </div>
          {groups.isFetching || projects.isFetching ? <p className="muted" role="status">Searching…</p> : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
