import type { Db } from '../db.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import type { Sandbox, UserRow } from '../context.ts';
import { HttpError, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import type { ParamReader } from '../http/params.ts';
import {
  AccessLevel, VISIBILITIES, effectiveRole, findReadableGroup, findReadableProject, visibilityRank,
  type NamespaceRow, type ProjectRow, type Visibility,
} from '../model/access.ts';
import { PROJECT_SETTING_DEFAULTS, projectEntity } from '../model/entities.ts';
import { listProjects } from '../model/project-list.ts';
import { timestamp } from '../model/time.ts';
import { removeGroupLink, shareWithGroup } from '../model/sharing.ts';
import { writableRepository } from '../git/access.ts';
import { recordPush } from '../git/entities.ts';
import { isValidBranchName } from '../git/repository.ts';
import { commitTree, treeWithActions } from '../git/write.ts';
import { committerOf } from './commits.ts';
import { policyUpdate, savePolicy } from '../model/registry-policy.ts';

const PATH = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
const RESERVED_SUFFIX = /\.(git|atom)$/;

export function pathErrors(path: string): string[] {
  const errors: string[] = [];
  if (!PATH.test(path) || RESERVED_SUFFIX.test(path) || /[.-]$/.test(path)) {
    errors.push("can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'");
  }
  if (path.length > 255) errors.push('is too long (maximum is 255 characters)');
  return errors;
}

/** Turns a name into a path the way the platform suggests one. */
export function pathFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'project';
}

const ACCESS_LEVEL_SETTINGS = Object.keys(PROJECT_SETTING_DEFAULTS).filter((key) => key.endsWith('_access_level'));
const BOOLEAN_SETTINGS = Object.entries(PROJECT_SETTING_DEFAULTS).filter(([, value]) => typeof value === 'boolean').map(([key]) => key);
const ENUM_SETTINGS: Record<string, readonly string[]> = {
  merge_method: ['merge', 'rebase_merge', 'ff'],
  squash_option: ['never', 'always', 'default_on', 'default_off'],
};
const TEXT_SETTINGS = ['ci_config_path', 'merge_requests_template', 'issues_template', 'suggestion_commit_message', 'merge_commit_template', 'squash_commit_template'];

/** Groups and projects share one space of full paths on the platform (its routes table). */
export function fullPathTaken(db: Db, fullPath: string, exceptProjectId?: number): boolean {
  return Boolean(
    db.prepare('SELECT 1 FROM projects WHERE path_with_namespace = ? AND id IS NOT ?').get(fullPath, exceptProjectId ?? null) ||
      db.prepare("SELECT 1 FROM namespaces WHERE full_path = ? AND kind = 'group'").get(fullPath),
  );
}

export function findNamespace(db: Db, id: number): NamespaceRow | undefined {
  return db.prepare('SELECT * FROM namespaces WHERE id = ?').get(id) as NamespaceRow | undefined;
}

function refreshProject(db: Db, id: number): ProjectRow {
  return db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow;
}

/** Creates a project row; the caller has checked permissions. Personal projects get their owner as Owner. */
export function insertProject(
  sandbox: Sandbox,
  input: { name: string; path: string; namespace: NamespaceRow; creator: UserRow; visibility: Visibility; description?: string; defaultBranch?: string; topics?: string[]; createdAt: string },
): ProjectRow {
  const { db } = sandbox;
  const fullPath = `${input.namespace.full_path}/${input.path}`;
  const errors: Record<string, string[]> = {};
  const pathProblems = pathErrors(input.path);
  if (pathProblems.length) errors.path = pathProblems;
  if (!input.name.trim()) errors.name = ["can't be blank"];
  if (db.prepare('SELECT 1 FROM projects WHERE namespace_id = ? AND lower(name) = lower(?)').get(input.namespace.id, input.name)) {
    errors.name = ['has already been taken'];
  }
  if (fullPathTaken(db, fullPath)) errors.path = ['has already been taken'];
  if (input.namespace.kind === 'group' && visibilityRank(input.visibility) > visibilityRank(input.namespace.visibility)) {
    errors.visibility_level = [`${input.visibility} is not allowed in a ${input.namespace.visibility} group.`];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  const result = db
    .prepare(
      `INSERT INTO projects (name, path, path_with_namespace, namespace_id, creator_id, description, visibility, default_branch, topics, created_at, updated_at, last_activity_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(input.name, input.path, fullPath, input.namespace.id, input.creator.id, input.description ?? '', input.visibility, input.defaultBranch ?? 'main', JSON.stringify(input.topics ?? []), input.createdAt, input.createdAt, input.createdAt);
  const id = Number(result.lastInsertRowid);
  if (input.namespace.kind === 'user') {
    db.prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, created_by_id, created_at, updated_at) VALUES ('Project', ?, ?, 50, ?, ?, ?)`,
    ).run(id, input.namespace.owner_id, input.creator.id, input.createdAt, input.createdAt);
  }
  return refreshProject(db, id);
}

/** The project row of POST /projects, with its settings and its creator's membership. */
function createProject({ sandbox, actor, params, now }: Call, defaultBranch: string | undefined): ProjectRow {
  const { db } = sandbox;
  const user = actor.user!;
  const name = params.string('name');
  const path = params.string('path');
  if (!name && !path) throw paramError('name, path are missing, at least one parameter must be provided');
  const namespaceId = params.int('namespace_id');
  let namespace: NamespaceRow | undefined;
  if (namespaceId === undefined) {
    namespace = db.prepare("SELECT * FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(user.id) as NamespaceRow | undefined;
    // bots and service accounts have no personal namespace to put a project in
    if (!namespace) throw new HttpError(403, { message: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
  } else {
    namespace = findNamespace(db, namespaceId);
    if (!namespace) throw notFound('Namespace');
  }
  if (namespace.kind === 'group') {
    findReadableGroup(db, actor, String(namespace.id), now);
    const settings = JSON.parse(namespace.settings) as { project_creation_level?: string };
    const needed = settings.project_creation_level === 'maintainer' ? AccessLevel.MAINTAINER : settings.project_creation_level === 'noone' ? AccessLevel.ADMIN : AccessLevel.DEVELOPER;
    if (effectiveRole(db, actor, { type: 'Namespace', id: namespace.id }, now) < needed && !user.is_admin) throw forbidden();
  } else if (namespace.owner_id !== user.id && !user.is_admin) {
    throw forbidden();
  } else {
    const count = (db.prepare('SELECT count(*) AS n FROM projects WHERE namespace_id = ?').get(namespace.id) as { n: number }).n;
    if (count >= user.projects_limit) {
      throw new HttpError(403, { message: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
    }
  }
  const visibility = params.oneOf('visibility', VISIBILITIES) ?? 'private';
  const project = insertProject(sandbox, {
    name: name ?? path!,
    path: path ?? pathFromName(name!),
    namespace,
    creator: user,
    visibility,
    description: params.string('description'),
    defaultBranch,
    topics: params.stringArray('topics') ?? params.stringArray('tag_list'),
    createdAt: timestamp(now),
  });
  if (namespace.kind === 'group' && effectiveRole(db, actor, { type: 'Namespace', id: namespace.id }, now) < AccessLevel.MAINTAINER) {
    db.prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, created_by_id, created_at, updated_at) VALUES ('Project', ?, ?, 40, ?, ?, ?)`,
    ).run(project.id, user.id, user.id, project.created_at, project.created_at);
  }
  const settings = collectSettings(params);
  if (Object.keys(settings).length) db.prepare('UPDATE projects SET settings = ? WHERE id = ?').run(JSON.stringify(settings), project.id);
  return project;
}

export function registerProjects(routes: Router): void {
  routes.get('/projects', { auth: 'public' }, (c, call) => listProjects(c, call));

  routes.get('/projects/:id', { auth: 'public' }, (c, { sandbox, actor, now }) => {
    const project = findReadableProject(sandbox.db, actor, pathParam(c, 'id'), now);
    return c.json(projectEntity(sandbox, project, actor, now));
  });

  // async: a README asked for with initialize_with_readme is a git commit after the row is in
  routes.post('/projects', { async: true }, async (c, call) => {
    const { sandbox, actor, params, now } = call;
    const { db } = sandbox;
    const initializeWithReadme = params.bool('initialize_with_readme') ?? false;
    const defaultBranch = params.string('default_branch');
    if (defaultBranch !== undefined && !isValidBranchName(defaultBranch)) throw validationError({ default_branch: ['is invalid'] });
    const project = db.transaction(() => createProject(call, defaultBranch))();
    if (initializeWithReadme) {
      // Projects::CreateService: the first commit, README.md, on the default branch
      const repo = writableRepository(call, project);
      const tree = await treeWithActions(repo, null, [{ action: 'create', filePath: 'README.md', content: Buffer.from(`# ${project.name}\n`) }]);
      const committer = committerOf(call);
      await commitTree(repo, tree, { branch: project.default_branch, parent: null, expectedHead: null, message: 'Initial commit', author: committer, committer, when: sandbox.now() });
      recordPush(sandbox, project, project.default_branch, { firstBranch: true });
    }
    return c.json(projectEntity(sandbox, refreshProject(db, project.id), actor, now), 201);
  });

  routes.put('/projects/:id', {}, (c, { sandbox, actor, params, now }) => {
    const { db } = sandbox;
    const project = findReadableProject(db, actor, pathParam(c, 'id'), now);
    const role = effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
    if (role < AccessLevel.MAINTAINER) throw forbidden();
    const changes: Partial<Record<'name' | 'path' | 'description' | 'visibility' | 'default_branch' | 'topics' | 'archived', string | number>> = {};
    const name = params.string('name');
    const path = params.string('path');
    const visibility = params.oneOf('visibility', VISIBILITIES);
    // renaming the path and changing visibility are the owner's decisions
    if ((path !== undefined && path !== project.path) || (visibility !== undefined && visibility !== project.visibility)) {
      if (role < AccessLevel.OWNER) throw forbidden();
    }
    const errors: Record<string, string[]> = {};
    if (name !== undefined) {
      if (!name.trim()) errors.name = ["can't be blank"];
      else if (db.prepare('SELECT 1 FROM projects WHERE namespace_id = ? AND lower(name) = lower(?) AND id != ?').get(project.namespace_id, name, project.id)) errors.name = ['has already been taken'];
      changes.name = name;
    }
    const namespace = findNamespace(db, project.namespace_id)!;
    if (path !== undefined && path !== project.path) {
      const problems = pathErrors(path);
      if (fullPathTaken(db, `${namespace.full_path}/${path}`, project.id)) problems.push('has already been taken');
      if (problems.length) errors.path = problems;
      changes.path = path;
    }
    if (visibility !== undefined) {
      if (namespace.kind === 'group' && visibilityRank(visibility) > visibilityRank(namespace.visibility)) {
        errors.visibility_level = [`${visibility} is not allowed in a ${namespace.visibility} group.`];
      }
      changes.visibility = visibility;
    }
    const description = params.string('description');
    if (description !== undefined) changes.description = description;
    const defaultBranch = params.string('default_branch');
    if (defaultBranch !== undefined) {
      if (!defaultBranch.trim()) errors.default_branch = ["can't be blank"];
      changes.default_branch = defaultBranch;
    }
    const topics = params.stringArray('topics') ?? params.stringArray('tag_list');
    if (topics !== undefined) changes.topics = JSON.stringify([...new Set(topics.filter(Boolean))]);
    const settings = collectSettings(params);
    if (Object.keys(errors).length) throw validationError(errors);
    const policy = policyUpdate(db, project, params.raw.container_expiration_policy_attributes, now);
    if (policy) savePolicy(db, policy);
    const stamp = timestamp(now);
    const assignments = Object.keys(changes).map((key) => `${key} = @${key}`);
    db.prepare(`UPDATE projects SET ${[...assignments, 'updated_at = @stamp', 'settings = @settings'].join(', ')} WHERE id = @id`).run({
      ...changes,
      stamp,
      settings: JSON.stringify({ ...(JSON.parse(project.settings) as object), ...settings }),
      id: project.id,
    });
    if (changes.path !== undefined) {
      const newFullPath = `${namespace.full_path}/${changes.path}`;
      db.prepare('UPDATE projects SET path_with_namespace = ? WHERE id = ?').run(newFullPath, project.id);
      // the old path keeps resolving (spec 1, 4.1.9); a path taken back stops redirecting
      db.prepare('DELETE FROM redirect_routes WHERE path = ?').run(newFullPath);
      db.prepare("INSERT OR REPLACE INTO redirect_routes (path, source_type, source_id) VALUES (?, 'Project', ?)").run(project.path_with_namespace, project.id);
    }
    return c.json(projectEntity(sandbox, refreshProject(db, project.id), actor, now));
  });

  // the platform's star and unstar: 201 with the project, or 304 when nothing changes
  routes.post('/projects/:id/star', {}, (c, { sandbox, actor, now }) => {
    const project = findReadableProject(sandbox.db, actor, pathParam(c, 'id'), now);
    const added = sandbox.db.prepare('INSERT OR IGNORE INTO project_stars (user_id, project_id, created_at) VALUES (?, ?, ?)').run(actor.user!.id, project.id, timestamp(now));
    if (added.changes === 0) return c.body(null, 304);
    sandbox.db.prepare('UPDATE projects SET star_count = star_count + 1 WHERE id = ?').run(project.id);
    return c.json(projectEntity(sandbox, refreshProject(sandbox.db, project.id), actor, now), 201);
  });

  routes.post('/projects/:id/unstar', {}, (c, { sandbox, actor, now }) => {
    const project = findReadableProject(sandbox.db, actor, pathParam(c, 'id'), now);
    const removed = sandbox.db.prepare('DELETE FROM project_stars WHERE user_id = ? AND project_id = ?').run(actor.user!.id, project.id);
    if (removed.changes === 0) return c.body(null, 304);
    sandbox.db.prepare('UPDATE projects SET star_count = max(star_count - 1, 0) WHERE id = ?').run(project.id);
    return c.json(projectEntity(sandbox, refreshProject(sandbox.db, project.id), actor, now), 201);
  });

  routes.get('/groups/:id/projects', { auth: 'public' }, (c, call) => {
    const { sandbox, actor, params, now } = call;
    const group = findReadableGroup(sandbox.db, actor, pathParam(c, 'id'), now);
    const namespaceIds = params.bool('include_subgroups')
      ? (sandbox.db.prepare(`WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT n.id FROM namespaces n JOIN tree ON n.parent_id = tree.id) SELECT id FROM tree`).all(group.id) as Array<{ id: number }>).map((row) => row.id)
      : [group.id];
    const withShared = params.bool('with_shared') ?? true;
    return listProjects(c, call, { namespaceIds, sharedWithGroupIds: withShared ? [group.id] : undefined });
  });

  routes.post('/projects/:id/share', {}, (c, { sandbox, actor, params, now }) => {
    const project = findReadableProject(sandbox.db, actor, pathParam(c, 'id'), now);
    if (effectiveRole(sandbox.db, actor, { type: 'Project', id: project.id }, now) < AccessLevel.MAINTAINER) throw forbidden();
    const link = shareWithGroup(sandbox, actor, { type: 'Project', id: project.id }, params, now);
    return c.json({ id: link.id, project_id: project.id, group_id: link.group_id, group_access: link.group_access, expires_at: link.expires_at }, 201);
  });

  routes.delete('/projects/:id/share/:group_id', {}, (c, { sandbox, actor, now }) => {
    const project = findReadableProject(sandbox.db, actor, pathParam(c, 'id'), now);
    if (effectiveRole(sandbox.db, actor, { type: 'Project', id: project.id }, now) < AccessLevel.MAINTAINER) throw forbidden();
    removeGroupLink(sandbox, { type: 'Project', id: project.id }, pathParam(c, 'group_id'));
    return c.body(null, 204);
  });
}

/** Feature settings present in the request, validated against the platform's values. */
function collectSettings(params: ParamReader): Record<string, unknown> {
  const raw = params.raw;
  const settings: Record<string, unknown> = {};
  for (const key of ACCESS_LEVEL_SETTINGS) {
    const value = raw[key];
    if (value === undefined) continue;
    const allowed = key === 'pages_access_level' ? ['disabled', 'private', 'enabled', 'public'] : ['disabled', 'private', 'enabled'];
    if (typeof value !== 'string' || !allowed.includes(value)) throw paramError(`${key} does not have a valid value`);
    settings[key] = value;
  }
  // the old boolean switches map onto the access levels
  const booleanAliases: Record<string, string> = {
    issues_enabled: 'issues_access_level', merge_requests_enabled: 'merge_requests_access_level', wiki_enabled: 'wiki_access_level',
    jobs_enabled: 'builds_access_level', snippets_enabled: 'snippets_access_level', container_registry_enabled: 'container_registry_access_level',
  };
  for (const [alias, key] of Object.entries(booleanAliases)) {
    if (raw[alias] === undefined || raw[key] !== undefined) continue;
    settings[key] = params.bool(alias) ? 'enabled' : 'disabled';
  }
  for (const key of BOOLEAN_SETTINGS) {
    if (raw[key] !== undefined) settings[key] = params.bool(key);
  }
  for (const [key, values] of Object.entries(ENUM_SETTINGS)) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !values.includes(value)) throw paramError(`${key} does not have a valid value`);
    settings[key] = value;
  }
  for (const key of TEXT_SETTINGS) {
    if (raw[key] !== undefined) settings[key] = raw[key] === null ? null : params.string(key);
  }
  if (raw.ci_default_git_depth !== undefined) {
    const depth = Number(raw.ci_default_git_depth);
    if (!Number.isInteger(depth) || depth < 0 || depth > 1000) throw paramError('ci_default_git_depth does not have a valid value');
    settings.ci_default_git_depth = depth;
  }
  return settings;
}
