/**
 * The console's screens by context and section, named as the platform's own sidebar names them
 * (Manage, Plan, Code, Build, Deploy, Monitor, Settings, and Admin for the instance). The sidebar
 * and the command palette both read this list; a new area adds its screens to its section here.
 */
export const SECTIONS = ['Manage', 'Plan', 'Code', 'Build', 'Deploy', 'Monitor', 'Settings'] as const;
export type SectionName = (typeof SECTIONS)[number];

export interface NavItem {
  label: string;
  /** A route path of src/routes, with `params` for its `$` segments. */
  to: string;
  params?: Record<string, string>;
  /** Current only on this very path (Home, and the lists whose children are other screens). */
  exact?: boolean;
  /** Also current on these paths (Files stays current on a file, its blame and its editor). */
  alsoCurrent?: RegExp;
}

export interface NavSection {
  /** The group's label: a section name, or "Your work" and "Admin". */
  name: string;
  items: NavItem[];
}

export interface NavContext {
  isAdmin: boolean;
  isBot: boolean;
  group?: {
    id: number;
    /** Known once the group has loaded: billable members and service accounts belong to top-level groups. */
    topLevel: boolean;
    /** Owners (and administrators) see the group screens only Owners may open. */
    owner: boolean;
  };
  projectId?: number;
}

/** What every signed-in person has, whatever the context. */
export function yourWork({ isBot }: Pick<NavContext, 'isBot'>): NavSection {
  return {
    name: 'Your work',
    items: [
      { label: 'Home', to: '/', exact: true },
      { label: 'Groups', to: '/groups', exact: true },
      { label: 'Projects', to: '/projects', exact: true },
      { label: 'People', to: '/users' },
      { label: 'Issues', to: '/issues' },
      // exact: the review queue below it is a screen of its own
      { label: 'Merge requests', to: '/merge-requests', exact: true },
      { label: 'Review queue', to: '/merge-requests/board' },
      { label: 'Token expiry', to: '/access-tokens/expiry' },
      ...(isBot ? [{ label: 'This token', to: '/access-tokens/self' }] : []),
    ],
  };
}

/** The instance screens, for administrators only. */
export const ADMIN_SECTION: NavSection = {
  name: 'Admin',
  items: [
    { label: 'Runners', to: '/admin/runners' },
    { label: 'Service accounts', to: '/admin/service-accounts' },
    { label: 'System hooks', to: '/admin/hooks' },
    { label: 'Storage moves', to: '/admin/storage-moves' },
    { label: 'Deploy keys', to: '/admin/deploy-keys' },
  ],
};

type Placed = NavItem & { section: SectionName };

function groupItems(group: NonNullable<NavContext['group']>): Placed[] {
  const params = { groupId: String(group.id) };
  const owned = group.owner;
  const topOwned = owned && group.topLevel;
  return [
    { section: 'Manage', label: 'Members', to: '/groups/$groupId/members', params },
    { section: 'Plan', label: 'Issues', to: '/groups/$groupId/issues', params },
    { section: 'Plan', label: 'Issue boards', to: '/groups/$groupId/boards', params },
    { section: 'Code', label: 'Merge requests', to: '/groups/$groupId/merge-requests', params },
    { section: 'Code', label: 'Merge request board', to: '/groups/$groupId/merge-request-board', params },
    ...(owned ? [{ section: 'Build' as const, label: 'Runners', to: '/groups/$groupId/runners', params }] : []),
    { section: 'Deploy', label: 'Package registry', to: '/groups/$groupId/packages', params },
    { section: 'Deploy', label: 'Container registry', to: '/groups/$groupId/registry', params },
    ...(owned ? [{ section: 'Settings' as const, label: 'Access tokens', to: '/groups/$groupId/access-tokens', params }] : []),
    ...(topOwned ? [{ section: 'Settings' as const, label: 'Service accounts', to: '/groups/$groupId/service-accounts', params }] : []),
    // the platform shows seats under Settings, Usage quotas
    ...(topOwned ? [{ section: 'Settings' as const, label: 'Billable members', to: '/groups/$groupId/billable-members', params }] : []),
  ];
}

function projectItems(projectId: number): Placed[] {
  const params = { projectId: String(projectId) };
  return [
    { section: 'Manage', label: 'Members', to: '/projects/$projectId/members', params },
    // the list stays current on an issue's own page
    { section: 'Plan', label: 'Issues', to: '/projects/$projectId/issues', params, alsoCurrent: /^\/projects\/[^/]+\/issues\// },
    { section: 'Plan', label: 'Issue boards', to: '/projects/$projectId/boards', params },
    { section: 'Code', label: 'Merge requests', to: '/projects/$projectId/merge-requests', params, alsoCurrent: /^\/projects\/[^/]+\/merge-requests\// },
    { section: 'Code', label: 'Merge request board', to: '/projects/$projectId/merge-request-board', params },
    { section: 'Code', label: 'Files', to: '/projects/$projectId/tree/$', params: { ...params, _splat: '' }, alsoCurrent: /^\/projects\/[^/]+\/(blob|blame|edit|new|changes)(\/|$)/ },
    { section: 'Code', label: 'Commits', to: '/projects/$projectId/commits', params, alsoCurrent: /^\/projects\/[^/]+\/commit\// },
    { section: 'Code', label: 'Branches', to: '/projects/$projectId/branches', params },
    // the list stays current on a pipeline, the run form and the durations chart
    { section: 'Build', label: 'Pipelines', to: '/projects/$projectId/pipelines', params, alsoCurrent: /^\/projects\/[^/]+\/pipelines\// },
    { section: 'Build', label: 'Runners', to: '/projects/$projectId/runners', params },
    // the list stays current on a package
    { section: 'Deploy', label: 'Package registry', to: '/projects/$projectId/packages', params, alsoCurrent: /^\/projects\/[^/]+\/packages\// },
    // an image and the cleanup policy keep the registry current
    { section: 'Deploy', label: 'Container registry', to: '/projects/$projectId/registry', params, alsoCurrent: /^\/projects\/[^/]+\/registry\// },
    // the list stays current on an alert's own page; the tester is a screen of its own
    { section: 'Monitor', label: 'Alerts', to: '/projects/$projectId/alerts', params, exact: true, alsoCurrent: /^\/projects\/[^/]+\/alerts\/\d/ },
    { section: 'Monitor', label: 'Alert tester', to: '/projects/$projectId/alerts/tester', params },
    // the platform keeps deploy keys in Settings, Repository
    { section: 'Settings', label: 'Deploy keys', to: '/projects/$projectId/deploy-keys', params },
    // the platform keeps package protection in Settings, Packages and registries
    { section: 'Settings', label: 'Packages and registries', to: '/projects/$projectId/packages-and-registries', params },
    // the platform keeps these in Settings, Merge requests; members below Maintainer see them read-only
    { section: 'Settings', label: 'Merge request approvals', to: '/projects/$projectId/approval-settings', params },
    // the platform keeps these in Settings, Monitor, Alerts
    { section: 'Settings', label: 'Alert integrations', to: '/projects/$projectId/settings/alerts', params },
  ];
}

/** The sections of a group or project in the platform's order; sections with no screen yet are left out. */
export function contextSections(context: NavContext): NavSection[] {
  const placed = context.projectId !== undefined ? projectItems(context.projectId) : context.group ? groupItems(context.group) : [];
  return SECTIONS.map((name) => ({ name, items: placed.filter((item) => item.section === name).map(({ section: _section, ...item }) => item) })).filter(
    (section) => section.items.length > 0,
  );
}
