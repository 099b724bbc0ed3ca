import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db.ts';
import { HttpError, notFound, paramError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import type { ProjectRow } from '../model/access.ts';
import { PROTECTION_LEVELS, integerParam, protectionLevelName, protectionLevelValue, re2Error, registryAccess, type ProtectionLevelName } from '../model/registry.ts';

/**
 * The registry's protection rules (project_container_registry_protection_tag_rules.rb and
 * project_container_registry_protection_rules.rb): one set of routes for tag rules (an RE2
 * pattern, both levels required, at most 5) and repository rules (a path with `*` wildcards that
 * starts with the project's full path, at least one level). Maintainers and up.
 */

interface RuleKind {
  /** The URL segment: /projects/:id/registry/protection/<segment>/rules */
  segment: 'tag' | 'repository';
  table: string;
  patternField: 'tag_name_pattern' | 'repository_path_pattern';
  bothLevels: boolean;
  maxRules: number | null;
  patternProblems(project: ProjectRow, pattern: string): string[];
}

interface RuleRow {
  id: number;
  project_id: number;
  pattern: string;
  push: number | null;
  remove: number | null;
}

const PATTERN_MAX_LENGTH = 100;

const KINDS: RuleKind[] = [
  {
    segment: 'tag',
    table: 'container_tag_protection_rules',
    patternField: 'tag_name_pattern',
    bothLevels: true,
    maxRules: 5,
    patternProblems: (_project, pattern) => {
      const syntax = re2Error(pattern);
      return syntax ? [`not valid RE2 syntax: ${syntax}`] : [];
    },
  },
  {
    segment: 'repository',
    table: 'container_repository_protection_rules',
    patternField: 'repository_path_pattern',
    bothLevels: false,
    maxRules: null,
    patternProblems: (project, pattern) => {
      const problems: string[] = [];
      if (!/^[a-z0-9*][a-z0-9._\-/*]*$/i.test(pattern)) problems.push('should be a valid container repository path with optional wildcard characters.');
      if (!pattern.toLowerCase().startsWith(project.path_with_namespace.toLowerCase())) problems.push("should start with the project's full path");
      return problems;
    },
  },
];

function selectRules(kind: RuleKind) {
  return `SELECT id, project_id, ${kind.patternField} AS pattern, minimum_access_level_for_push AS push, minimum_access_level_for_delete AS remove FROM ${kind.table}`;
}

function ruleEntity(kind: RuleKind, rule: RuleRow) {
  return {
    id: rule.id,
    project_id: rule.project_id,
    [kind.patternField]: rule.pattern,
    minimum_access_level_for_push: rule.push === null ? null : protectionLevelName(rule.push),
    minimum_access_level_for_delete: rule.remove === null ? null : protectionLevelName(rule.remove),
  };
}

function levelParam(call: Call, name: string): ProtectionLevelName | null | undefined {
  const raw = call.params.raw[name];
  if (raw === undefined) return undefined;
  if (raw === '' || raw === null) return null;
  if (typeof raw !== 'string' || !(PROTECTION_LEVELS as string[]).includes(raw)) throw paramError(`${name} does not have a valid value`);
  return raw as ProtectionLevelName;
}

const humanField = (field: string) => field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');

/** The model's validations: 422 with the messages joined, as the service answers them. */
function validateRule(db: Db, kind: RuleKind, project: ProjectRow, rule: { pattern: string; push: number | null; remove: number | null }, exceptId: number | null) {
  const messages: string[] = [];
  const field = humanField(kind.patternField);
  if (!rule.pattern.trim()) messages.push(`${field} can't be blank`);
  else {
    if (rule.pattern.length > PATTERN_MAX_LENGTH) messages.push(`${field} is too long (maximum is ${PATTERN_MAX_LENGTH} characters)`);
    for (const problem of kind.patternProblems(project, rule.pattern)) messages.push(`${field} ${problem}`);
  }
  if (db.prepare(`SELECT 1 FROM ${kind.table} WHERE project_id = ? AND ${kind.patternField} = ? AND id IS NOT ?`).get(project.id, rule.pattern, exceptId)) {
    messages.push(`${field} has already been taken`);
  }
  if (kind.bothLevels && (rule.push === null || rule.remove === null)) messages.push('Access levels should both be present');
  if (!kind.bothLevels && rule.push === null && rule.remove === null) messages.push('A rule must have at least a minimum access role for push or delete.');
  if (messages.length) throw new HttpError(422, { message: messages.join(', ') });
}

function findRule(c: Context<AppEnv>, call: Call, kind: RuleKind, projectId: number): RuleRow {
  const id = integerParam('protection_rule_id', pathParam(c, 'protection_rule_id'));
  const rule = call.sandbox.db.prepare(`${selectRules(kind)} WHERE id = ? AND project_id = ?`).get(id, projectId) as RuleRow | undefined;
  if (!rule) throw notFound('Protection Rule');
  return rule;
}

const levelValue = (level: ProtectionLevelName | null) => (level === null ? null : protectionLevelValue(level));

function registerKind(routes: Router, kind: RuleKind): void {
  const base = `/projects/:id/registry/protection/${kind.segment}/rules`;
  const admin = (c: Context<AppEnv>, call: Call) => registryAccess(call.sandbox, call.actor, pathParam(c, 'id'), call.now, 'admin').project;
  const one = (db: Db, id: number) => db.prepare(`${selectRules(kind)} WHERE id = ?`).get(id) as RuleRow;

  routes.get(base, {}, (c, call) => {
    const project = admin(c, call);
    const rules = call.sandbox.db.prepare(`${selectRules(kind)} WHERE project_id = ? ORDER BY id`).all(project.id) as RuleRow[];
    return c.json(rules.map((rule) => ruleEntity(kind, rule)));
  });

  routes.post(base, {}, (c, call) => {
    const project = admin(c, call);
    const { db } = call.sandbox;
    let pattern = '';
    let push: ProtectionLevelName | null | undefined;
    let remove: ProtectionLevelName | null | undefined;
    collectParamErrors([
      () => (pattern = call.params.requiredString(kind.patternField)),
      () => {
        push = levelParam(call, 'minimum_access_level_for_push');
        if (push === undefined && kind.bothLevels) throw paramError('minimum_access_level_for_push is missing');
      },
      () => {
        remove = levelParam(call, 'minimum_access_level_for_delete');
        if (remove === undefined && kind.bothLevels) throw paramError('minimum_access_level_for_delete is missing');
      },
    ]);
    if (!kind.bothLevels && push === undefined && remove === undefined) {
      throw paramError('minimum_access_level_for_push, minimum_access_level_for_delete are missing, at least one parameter must be provided');
    }
    if (kind.maxRules !== null) {
      const count = (db.prepare(`SELECT count(*) AS n FROM ${kind.table} WHERE project_id = ?`).get(project.id) as { n: number }).n;
      if (count >= kind.maxRules) throw new HttpError(422, { message: `Maximum number of protection rules have been reached (${kind.maxRules})` });
    }
    const rule = { pattern, push: levelValue(push ?? null), remove: levelValue(remove ?? null) };
    validateRule(db, kind, project, rule, null);
    const id = Number(db.prepare(`INSERT INTO ${kind.table} (project_id, ${kind.patternField}, minimum_access_level_for_push, minimum_access_level_for_delete) VALUES (?, ?, ?, ?)`)
      .run(project.id, rule.pattern, rule.push, rule.remove).lastInsertRowid);
    return c.json(ruleEntity(kind, one(db, id)), 201);
  });

  routes.patch(`${base}/:protection_rule_id`, {}, (c, call) => {
    const project = admin(c, call);
    const { db } = call.sandbox;
    const current = findRule(c, call, kind, project.id);
    let pattern: string | undefined;
    let push: ProtectionLevelName | null | undefined;
    let remove: ProtectionLevelName | null | undefined;
    collectParamErrors([
      () => (pattern = call.params.string(kind.patternField)),
      () => (push = levelParam(call, 'minimum_access_level_for_push')),
      () => (remove = levelParam(call, 'minimum_access_level_for_delete')),
    ]);
    const rule = {
      pattern: pattern ?? current.pattern,
      push: push === undefined ? current.push : levelValue(push),
      remove: remove === undefined ? current.remove : levelValue(remove),
    };
    validateRule(db, kind, project, rule, current.id);
    db.prepare(`UPDATE ${kind.table} SET ${kind.patternField} = ?, minimum_access_level_for_push = ?, minimum_access_level_for_delete = ? WHERE id = ?`)
      .run(rule.pattern, rule.push, rule.remove, current.id);
    return c.json(ruleEntity(kind, one(db, current.id)));
  });

  routes.delete(`${base}/:protection_rule_id`, {}, (c, call) => {
    const project = admin(c, call);
    const rule = findRule(c, call, kind, project.id);
    call.sandbox.db.prepare(`DELETE FROM ${kind.table} WHERE id = ?`).run(rule.id);
    return c.body(null, 204);
  });
}

export function registerRegistryProtection(routes: Router): void {
  for (const kind of KINDS) registerKind(routes, kind);
}

/**
 * Whether a repository rule stops this role from deleting the repository at `path`
 * (`*` matches any run of characters, case-insensitively, as the platform's ILIKE does).
 * Administrators are above the rules.
 */
export function repositoryDeleteProtected(db: Db, projectId: number, path: string, role: number): boolean {
  const rules = db.prepare('SELECT repository_path_pattern AS pattern FROM container_repository_protection_rules WHERE project_id = ? AND minimum_access_level_for_delete > ?').all(projectId, role) as Array<{ pattern: string }>;
  return rules.some((rule) => globMatches(rule.pattern, path));
}

function globMatches(pattern: string, path: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 'i').test(path);
}
