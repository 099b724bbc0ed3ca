import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams, useRouterState } from '@tanstack/react-router';
import { RouteLink, routeHref, type RoutePath } from '../../components/route-link.tsx';
import { groupsQueries } from '../../api/groups.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { usableStorage } from '../../api/stored-session.ts';
import { ADMIN_SECTION, contextSections, yourWork, type NavContext, type NavItem, type NavSection } from './nav-model.ts';
import { useMyAccess } from '../../components/use-my-access.ts';
import { NARROW_SCREEN, useMediaQuery } from '../../components/use-media-query.ts';

const COLLAPSED_KEY = 'console.sidebar-collapsed';
// a browser that blocks site data keeps the choice for this page only
const preferences = usableStorage(() => globalThis.localStorage);

/**
 * The path of the screen on show: the sidebar follows the screen, not the navigation that has just
 * started (re-rendering the shell then held the next screen's loader back by its render and layout).
 */
function useShownPathname(): string {
  return useRouterState({ select: (state) => (state.resolvedLocation ?? state.location).pathname });
}

/**
 * Whether the sidebar shows. Wide screens show it unless the user collapsed it (remembered on
 * this device); narrow ones keep it closed, and close it again after each navigation.
 */
export function useSidebarState() {
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [collapsed, setCollapsed] = useState(() => preferences?.getItem(COLLAPSED_KEY) === 'true');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useShownPathname();
  useEffect(() => setDrawerOpen(false), [pathname, narrow]);
  const expanded = narrow ? drawerOpen : !collapsed;
  const toggle = () => {
    if (narrow) return setDrawerOpen(!drawerOpen);
    preferences?.setItem(COLLAPSED_KEY, String(!collapsed));
    setCollapsed(!collapsed);
  };
  return { narrow, expanded, toggle, close: () => setDrawerOpen(false) };
}

/** Where the current page is: the group or project in the URL, and what the user may open there. */
export function useNavContext(): NavContext & { title?: { kind: string; name: string; path?: string } } {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const params = useParams({ strict: false }) as { groupId?: string; projectId?: string };
  const groupId = params.groupId ? Number(params.groupId) : undefined;
  const projectId = params.projectId ? Number(params.projectId) : undefined;
  const isAdmin = Boolean(me?.isAdmin);
  const group = useQuery({ ...groupsQueries.detail(connection, groupId ?? 0), enabled: groupId !== undefined });
  // group areas that only Owners may open are listed for Owners (and administrators) only
  const access = useMyAccess(groupId === undefined ? null : { group: groupId });
  const project = useQuery({ ...projectsQueries.detail(connection, projectId ?? 0), enabled: projectId !== undefined });
  const base = { isAdmin, isBot: Boolean(me?.isBot) };
  if (projectId !== undefined) {
    return { ...base, projectId, title: { kind: 'Project', name: project.data?.name_with_namespace ?? 'Project', path: project.data?.path_with_namespace } };
  }
  if (groupId !== undefined) {
    const owner = isAdmin || (access.data ?? 0) >= 50;
    return {
      ...base,
      group: { id: groupId, owner, topLevel: group.data?.parent_id === null },
      title: { kind: 'Group', name: group.data?.full_name ?? 'Group', path: group.data?.full_path },
    };
  }
  return base;
}

function NavLink({ item, pathname }: { item: NavItem; pathname: string }) {
  const href = routeHref(item.to, item.params);
  const current = pathname === href || (!item.exact && pathname.startsWith(href === '/' ? href : `${href}/`)) || (item.alsoCurrent?.test(pathname) ?? false);
  return (
    <RouteLink to={item.to as RoutePath} params={item.params as never} aria-current={current ? 'page' : undefined} className="sidebar__link">
      {item.label}
    </RouteLink>
  );
}

function SectionGroup({ section, pathname }: { section: NavSection; pathname: string }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="sidebar__section">
      <span id={id} className="sidebar__heading">
        {section.name}
      </span>
      <ul>
        {section.items.map((item) => (
          <li key={item.label}>
            <NavLink item={item} pathname={pathname} />
          </li>
        ))}
      </ul>
    </div>
  );
}

interface SidebarProps {
  id: string;
  expanded: boolean;
  narrow: boolean;
  onClose: () => void;
  /** The button that opens the drawer: focus goes back to it when the drawer closes by Escape. */
  toggleRef: RefObject<HTMLButtonElement | null>;
}

/** The sidebar of the current context: the user's work, the group's or project's sections, and Admin for administrators. */
export function Sidebar({ id, expanded, narrow, onClose, toggleRef }: SidebarProps) {
  const context = useNavContext();
  const pathname = useShownPathname();
  const navRef = useRef<HTMLElement>(null);
  const drawer = narrow && expanded;
  useEffect(() => {
    // an opened drawer takes focus, so the keyboard lands in it
    if (drawer) navRef.current?.querySelector('a')?.focus();
  }, [drawer]);
  return (
    <>
      {drawer ? <div className="sidebar__backdrop" aria-hidden="true" onClick={onClose} /> : null}
      <nav
        id={id}
        ref={navRef}
        aria-label="Areas"
        className={drawer ? 'sidebar sidebar--drawer' : 'sidebar'}
        hidden={!expanded}
        onKeyDown={(event) => {
          if (drawer && event.key === 'Escape') {
            onClose();
            toggleRef.current?.focus();
          }
        }}
      >
        <div className="sidebar__inner">
          <SectionGroup section={yourWork(context)} pathname={pathname} />
          {context.title ? (
            <p className="sidebar__context" title={context.title.path}>
              <span className="sidebar__kind">{context.title.kind}</span> {context.title.name}
            </p>
          ) : null}
          {contextSections(context).map((section) => (
            <SectionGroup key={section.name} section={section} pathname={pathname} />
          ))}
          {context.isAdmin ? <SectionGroup section={ADMIN_SECTION} pathname={pathname} /> : null}
        </div>
      </nav>
    </>
  );
}
