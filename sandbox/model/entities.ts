import type { Db } from '../db.ts';
import type { Actor, Sandbox, UserRow } from '../context.ts';
import { groupChain, type NamespaceRow, type ProjectRow } from './access.ts';
import { repositoryHasBranches } from '../git/repository.ts';
import { findPolicy, policyEntity } from './registry-policy.ts';
import { hasPendingRepository } from '../seed/repositories.ts';

/** The user's picture: the sandbox draws one from the initials, so no outside host is needed. */
export function avatarUrl(sandbox: Sandbox, user: Pick<UserRow, 'id' | 'avatar_url'>): string {
  return user.avatar_url ?? `${sandbox.config.externalUrl}/-/sandbox/avatars/user/${user.id}.png`;
}

/** User summary of spec 1, 2.6 (the platform's UserBasic). */
export function userBasic(sandbox: Sandbox, user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    public_email: user.public_email,
    name: user.name,
    state: user.state,
    locked: Boolean(user.locked),
    avatar_url: avatarUrl(sandbox, user),
    web_url: `${sandbox.config.externalUrl}/${user.username}`,
  };
}

/** What the user entities need besides the row, loaded for a whole page of users at once. */
export interface UserRelations {
  followers: Map<number, number>;
  following: Map<number, number>;
  followedByCaller: Set<number>;
  identities: Map<number, Array<{ provider: string; extern_uid: string; saml_provider_id: number | null }>>;
  namespaceIds: Map<number, number>;
  creators: Map<number, UserRow>;
}

export function loadUserRelations(db: Db, users: readonly UserRow[], actor: Actor): UserRelations {
  const ids = JSON.stringify(users.map((user) => user.id));
  const counts = (column: 'followee_id' | 'follower_id') =>
    new Map(
      (db.prepare(`SELECT ${column} AS id, count(*) AS n FROM follows WHERE ${column} IN (SELECT value FROM json_each(?)) GROUP BY ${column}`).all(ids) as Array<{ id: number; n: number }>)
        .map((row) => [row.id, row.n]),
    );
  const followedByCaller = new Set(
    actor.user
      ? (db.prepare('SELECT followee_id AS id FROM follows WHERE follower_id = ? AND followee_id IN (SELECT value FROM json_each(?))').all(actor.user.id, ids) as Array<{ id: number }>).map((row) => row.id)
      : [],
  );
  const identities: UserRelations['identities'] = new Map();
  for (const row of db.prepare('SELECT user_id, provider, extern_uid, saml_provider_id FROM identities WHERE user_id IN (SELECT value FROM json_each(?)) ORDER BY id').all(ids) as Array<{ user_id: number; provider: string; extern_uid: string; saml_provider_id: number | null }>) {
    const { user_id: userId, ...identity } = row;
    identities.set(userId, [...(identities.get(userId) ?? []), identity]);
  }
  const namespaceIds = new Map(
    (db.prepare("SELECT owner_id, id FROM namespaces WHERE kind = 'user' AND owner_id IN (SELECT value FROM json_each(?))").all(ids) as Array<{ owner_id: number; id: number }>)
      .map((row) => [row.owner_id, row.id]),
  );
  const creatorIds = JSON.stringify([...new Set(users.map((user) => user.created_by_id).filter((id) => id !== null))]);
  const creators = new Map((db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(creatorIds) as UserRow[]).map((row) => [row.id, row]));
  return { followers: counts('followee_id'), following: counts('follower_id'), followedByCaller, identities, namespaceIds, creators };
}

/** A user as others see them (GET /users/:id): profile fields, never the private email. */
export function userPublic(sandbox: Sandbox, user: UserRow, actor: Actor, relations = loadUserRelations(sandbox.db, [user], actor)) {
  return {
    ...userBasic(sandbox, user),
    created_at: user.created_at,
    bio: user.bio,
    location: user.location,
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: '',
    organization: user.organization,
    job_title: user.job_title,
    pronouns: null,
    bot: user.user_type !== 'human',
    work_information: user.organization || null,
    followers: relations.followers.get(user.id) ?? 0,
    following: relations.following.get(user.id) ?? 0,
    is_followed: relations.followedByCaller.has(user.id),
    local_time: null,
  };
}

/** A user as they see themselves, or as an administrator sees them: email, flags, sign-ins. */
export function userFull(sandbox: Sandbox, user: UserRow, actor: Actor, relations = loadUserRelations(sandbox.db, [user], actor)) {
  const creator = user.created_by_id ? relations.creators.get(user.created_by_id) : undefined;
  return {
    ...userPublic(sandbox, user, actor, relations),
    last_sign_in_at: user.last_sign_in_at,
    confirmed_at: user.confirmed_at,
    last_activity_on: user.last_activity_on,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projects_limit,
    current_sign_in_at: user.current_sign_in_at,
    identities: relations.identities.get(user.id) ?? [],
    can_create_group: Boolean(user.can_create_group),
    can_create_project: user.projects_limit > 0,
    two_factor_enabled: false,
    external: Boolean(user.external),
    private_profile: Boolean(user.private_profile),
    commit_email: user.email,
    // the platform's UserWithAdmin: only an administrator's answers carry these
    ...(actor.user?.is_admin
      ? {
          is_admin: Boolean(user.is_admin),
          note: null,
          namespace_id: relations.namespaceIds.get(user.id) ?? null,
          created_by: creator ? userBasic(sandbox, creator) : null,
          using_license_seat: user.user_type === 'human' && user.state === 'active',
        }
      : {}),
  };
}

export function userBasicById(sandbox: Sandbox, userId: number) {
  const user = sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(userId) as UserRow | undefined;
  return user ? userBasic(sandbox, user) : null;
}

/** The namespace object embedded in projects. */
export function namespaceEntity(sandbox: Sandbox, namespace: NamespaceRow) {
  const web = `${sandbox.config.externalUrl}/${namespace.kind === 'group' ? 'groups/' : ''}${namespace.full_path}`;
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.full_path,
    parent_id: namespace.parent_id,
    avatar_url: null,
    web_url: web,
  };
}

/** Settings a group carries besides its columns, with the platform's defaults. */
export const GROUP_SETTING_DEFAULTS = {
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: 'developer',
  auto_devops_enabled: null,
  subgroup_creation_level: 'maintainer',
  emails_disabled: false,
  emails_enabled: true,
  mentions_disabled: null,
  lfs_enabled: true,
  default_branch: null,
  default_branch_protection: 2,
  request_access_enabled: true,
  membership_lock: false,
  shared_runners_setting: 'enabled',
  wiki_access_level: 'enabled',
};

export function groupEntity(sandbox: Sandbox, group: NamespaceRow) {
  const settings = { ...GROUP_SETTING_DEFAULTS, ...(JSON.parse(group.settings) as object) };
  const fullName = sandbox.db
    .prepare(
      `WITH RECURSIVE chain(name, parent_id, depth) AS (
         SELECT name, parent_id, 0 FROM namespaces WHERE id = ?
         UNION ALL SELECT n.name, n.parent_id, depth + 1 FROM namespaces n JOIN chain ON n.id = chain.parent_id
       ) SELECT group_concat(name, ' / ') AS full_name FROM (SELECT name FROM chain ORDER BY depth DESC)`,
    )
    .get(group.id) as { full_name: string };
  return {
    id: group.id,
    web_url: `${sandbox.config.externalUrl}/groups/${group.full_path}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    ...settings,
    avatar_url: null,
    full_name: fullName.full_name,
    full_path: group.full_path,
    created_at: group.created_at,
    parent_id: group.parent_id,
    organization_id: 1,
    ldap_cn: null,
    ldap_access: null,
    marked_for_deletion_on: null,
    saml_enabled: group.saml_provider_id !== null,
  };
}

/** Feature settings of a project, with the platform's defaults. */
export const PROJECT_SETTING_DEFAULTS = {
  issues_access_level: 'enabled',
  repository_access_level: 'enabled',
  merge_requests_access_level: 'enabled',
  forking_access_level: 'enabled',
  wiki_access_level: 'enabled',
  builds_access_level: 'enabled',
  snippets_access_level: 'enabled',
  pages_access_level: 'private',
  analytics_access_level: 'enabled',
  container_registry_access_level: 'enabled',
  security_and_compliance_access_level: 'private',
  releases_access_level: 'enabled',
  environments_access_level: 'enabled',
  feature_flags_access_level: 'enabled',
  infrastructure_access_level: 'enabled',
  monitor_access_level: 'enabled',
  model_experiments_access_level: 'enabled',
  model_registry_access_level: 'enabled',
  requirements_access_level: 'enabled',
  emails_disabled: false,
  emails_enabled: true,
  shared_runners_enabled: true,
  lfs_enabled: true,
  request_access_enabled: true,
  packages_enabled: true,
  service_desk_enabled: false,
  resolve_outdated_diff_discussions: false,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: null,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  printing_merge_request_link_enabled: true,
  merge_method: 'merge',
  squash_option: 'default_off',
  autoclose_referenced_issues: true,
  ci_default_git_depth: 20,
  ci_config_path: null,
  public_jobs: true,
  merge_requests_template: null,
  issues_template: null,
  suggestion_commit_message: null,
  merge_commit_template: null,
  squash_commit_template: null,
  approvals_before_merge: 0,
  mirror: false,
  keep_latest_artifact: true,
  auto_devops_enabled: false,
};

export type ProjectSettings = typeof PROJECT_SETTING_DEFAULTS;

export function projectSettings(project: ProjectRow): ProjectSettings {
  return { ...PROJECT_SETTING_DEFAULTS, ...(JSON.parse(project.settings) as Partial<ProjectSettings>) };
}

/** "Acme Engineering / Frontend / Web App": the owning group's full name (or the user's name), then the project's. */
function projectNameWithNamespace(sandbox: Sandbox, project: ProjectRow, namespace: NamespaceRow): string {
  return `${namespace.kind === 'group' ? groupEntity(sandbox, namespace).full_name : namespace.name} / ${project.name}`;
}

/** ProjectIdentity: the short project the platform nests in storage moves, runners, jobs and deploy keys. */
export function projectIdentity(sandbox: Sandbox, project: ProjectRow) {
  const namespace = sandbox.db.prepare('SELECT * FROM namespaces WHERE id = ?').get(project.namespace_id) as NamespaceRow;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: projectNameWithNamespace(sandbox, project, namespace),
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    created_at: project.created_at,
  };
}

export function projectEntity(sandbox: Sandbox, project: ProjectRow, actor: Actor, now: Date) {
  const { db, config } = sandbox;
  const namespace = db.prepare('SELECT * FROM namespaces WHERE id = ?').get(project.namespace_id) as NamespaceRow;
  const settings = projectSettings(project);
  const web = `${config.externalUrl}/${project.path_with_namespace}`;
  const api = `${config.externalUrl}/api/v4/projects/${project.id}`;
  const host = new URL(config.externalUrl).host;
  const featureOn = (level: string) => level !== 'disabled';
  const nameWithNamespace = projectNameWithNamespace(sandbox, project, namespace);
  const owner = namespace.kind === 'user' && namespace.owner_id ? userBasicById(sandbox, namespace.owner_id) : undefined;
  const permissions = actor.user
    ? {
        project_access: highestAccess(db, 'Project', [project.id], actor.user.id, now),
        group_access: namespace.kind === 'group' ? highestGroupAccess(db, namespace.id, actor.user.id, now) : null,
      }
    : undefined;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: nameWithNamespace,
    path: project.path,
    path_with_namespace: project.path_with_namespace,
    created_at: project.created_at,
    updated_at: project.updated_at,
    default_branch: project.default_branch,
    tag_list: JSON.parse(project.topics),
    topics: JSON.parse(project.topics),
    ssh_url_to_repo: `git@${host.split(':')[0]}:${project.path_with_namespace}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: project.star_count,
    last_activity_at: project.last_activity_at,
    visibility: project.visibility,
    namespace: namespaceEntity(sandbox, namespace),
    ...(owner ? { owner } : {}),
    container_registry_image_prefix: `${host}/${project.path_with_namespace}`.toLowerCase(),
    container_expiration_policy: policyEntity(findPolicy(db, project)),
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    empty_repo: !repositoryHasBranches(sandbox, project) && !hasPendingRepository(sandbox, project.id),
    archived: Boolean(project.archived),
    creator_id: project.creator_id,
    open_issues_count: (sandbox.db.prepare("SELECT count(*) AS n FROM issues WHERE project_id = ? AND state = 'opened'").get(project.id) as { n: number }).n,
    import_status: 'none',
    repository_object_format: 'sha1',
    ...settings,
    issues_enabled: featureOn(settings.issues_access_level),
    merge_requests_enabled: featureOn(settings.merge_requests_access_level),
    wiki_enabled: featureOn(settings.wiki_access_level),
    jobs_enabled: featureOn(settings.builds_access_level),
    snippets_enabled: featureOn(settings.snippets_access_level),
    container_registry_enabled: featureOn(settings.container_registry_access_level),
    shared_with_groups: sharedWithGroups(sandbox, 'Project', project.id),
    ...(actor.user?.is_admin ? { repository_storage: project.repository_storage } : {}),
    ...(permissions ? { permissions } : {}),
  };
}

/** `permissions.group_access`: the caller's highest row on the project's group or its ancestors (the platform's `highest_group_member`). */
function highestGroupAccess(db: Db, groupId: number, userId: number, now: Date) {
  return highestAccess(db, 'Namespace', groupChain(db, groupId), userId, now);
}

/** The caller's highest active row on any of these sources, or null. */
function highestAccess(db: Db, sourceType: 'Project' | 'Namespace', sourceIds: number[], userId: number, now: Date) {
  const row = db
    .prepare(
      `SELECT max(access_level) AS access_level FROM members WHERE source_type = ? AND source_id IN (${sourceIds.map(() => '?').join(', ')})
       AND user_id = ? AND state = 'active' AND (expires_at IS NULL OR expires_at > ?)`,
    )
    .get(sourceType, ...sourceIds, userId, now.toISOString().slice(0, 10)) as { access_level: number | null };
  return row.access_level === null ? null : { access_level: row.access_level, notification_level: 3 };
}

/** Groups invited into a group or project, as the platform lists them on the shared object. */
export function sharedWithGroups(sandbox: Sandbox, sharedType: 'Project' | 'Namespace', sharedId: number) {
  const rows = sandbox.db
    .prepare(
      `SELECT l.group_id, l.group_access, l.expires_at, n.name, n.full_path FROM group_links l
       JOIN namespaces n ON n.id = l.group_id WHERE l.shared_type = ? AND l.shared_id = ? ORDER BY l.id`,
    )
    .all(sharedType, sharedId) as Array<{ group_id: number; group_access: number; expires_at: string | null; name: string; full_path: string }>;
  return rows.map((row) => ({
    group_id: row.group_id,
    group_name: row.name,
    group_full_path: row.full_path,
    group_access_level: row.group_access,
    expires_at: row.expires_at,
  }));
}
