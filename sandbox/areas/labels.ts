import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { HttpError, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, effectiveRole, findReadableGroup, findReadableProject, type NamespaceRow, type ProjectRow } from '../model/access.ts';
import {
  availableLabels, explicitSubscription, groupLabels, insertLabel, labelEntity, normalizeColor, setLabelPriority, setSubscription, type LabelRow,
} from '../model/labels.ts';
import { timestamp } from '../model/time.ts';

const NAME_MAX = 255;
const DESCRIPTION_MAX = 512;

/** Labels, milestones and boards belong to a project or to a group. */
export type Scope = { project: ProjectRow; group?: undefined } | { group: NamespaceRow; project?: undefined };

export function scopeOf(c: Context<AppEnv>, call: Call, kind: 'project' | 'group'): Scope {
  const id = pathParam(c, 'id');
  return kind === 'project'
    ? { project: findReadableProject(call.sandbox.db, call.actor, id, call.now) }
    : { group: findReadableGroup(call.sandbox.db, call.actor, id, call.now) };
}

/** admin_label, admin_milestone, admin_issue_board: Planner (Reporter) and up in the project or group. */
export function requirePlanner(call: Call, scope: Scope): void {
  const source = scope.project ? { type: 'Project' as const, id: scope.project.id } : { type: 'Namespace' as const, id: scope.group!.id };
  if (effectiveRole(call.sandbox.db, call.actor, source, call.now) < AccessLevel.PLANNER) throw forbidden();
}

function visibleLabels(call: Call, scope: Scope): LabelRow[] {
  if (scope.project) {
    const all = availableLabels(call.sandbox.db, scope.project);
    return call.params.bool('include_ancestor_groups') === false ? all.filter((label) => label.project_id !== null) : all;
  }
  // only_group_labels is accepted: the descendants' labels listed here are group labels either way
  return groupLabels(call.sandbox.db, scope.group!, {
    ancestors: call.params.bool('include_ancestor_groups') ?? true,
    descendants: call.params.bool('include_descendant_groups') ?? false,
  });
}

/** A label by id or by name (`:label_id` takes either), among the labels the scope sees. */
function findLabel(c: Context<AppEnv>, call: Call, scope: Scope): LabelRow {
  const raw = pathParam(c, 'label_id');
  const labels = visibleLabels(call, scope);
  const label = /^\d+$/.test(raw)
    ? labels.find((candidate) => candidate.id === Number(raw)) ?? labels.find((candidate) => candidate.title === raw)
    : labels.find((candidate) => candidate.title === raw);
  if (!label) throw notFound('Label');
  return label;
}

/** Only the scope's own labels can be changed there (a group label is edited at its group). */
function ownLabel(scope: Scope, label: LabelRow): void {
  const own = scope.project ? label.project_id === scope.project.id : label.group_id === scope.group!.id;
  if (!own) throw notFound('Label');
}

function entity(call: Call, scope: Scope, label: LabelRow, counts = false) {
  return labelEntity(call.sandbox.db, label, call.actor.user?.id ?? null, scope.project ?? null, counts);
}

function titleTaken(call: Call, scope: Scope, title: string, exceptId: number | null): boolean {
  const row = scope.project
    ? call.sandbox.db.prepare('SELECT id FROM labels WHERE project_id = ? AND title = ? AND id IS NOT ?').get(scope.project.id, title, exceptId)
    : call.sandbox.db.prepare('SELECT id FROM labels WHERE group_id = ? AND title = ? AND id IS NOT ?').get(scope.group!.id, title, exceptId);
  return Boolean(row);
}

function fieldErrors(name: string | undefined, color: string | undefined, description: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (name !== undefined) {
    if (!name.trim()) errors.title = ["can't be blank"];
    else if (name.length > NAME_MAX) errors.title = [`is too long (maximum is ${NAME_MAX} characters)`];
    else if (/[,]/.test(name)) errors.title = ['is invalid'];
  }
  if (color !== undefined && normalizeColor(color) === null) errors.color = ['must be a valid color code'];
  if (description !== undefined && description.length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`];
  return errors;
}

function registerScope(routes: Router, kind: 'project' | 'group'): void {
  const base = kind === 'project' ? '/projects/:id/labels' : '/groups/:id/labels';

  routes.get(base, { auth: 'public' }, (c, call) => {
    collectParamErrors([
      () => call.params.bool('with_counts'),
      () => call.params.bool('include_ancestor_groups'),
      () => call.params.bool('include_descendant_groups'),
      () => call.params.bool('only_group_labels'),
    ]);
    const scope = scopeOf(c, call, kind);
    const search = call.params.string('search')?.toLowerCase();
    const labels = visibleLabels(call, scope).filter((label) => !search || label.title.toLowerCase().includes(search));
    const counts = call.params.bool('with_counts') ?? false;
    return c.json(pageOfArray(c, call.params, labels).map((label) => entity(call, scope, label, counts)));
  });

  routes.get(`${base}/:label_id`, { auth: 'public' }, (c, call) => {
    const scope = scopeOf(c, call, kind);
    return c.json(entity(call, scope, findLabel(c, call, scope)));
  });

  routes.post(base, {}, (c, call) => {
    const { params } = call;
    let name = '';
    let color = '';
    collectParamErrors([
      () => { name = params.requiredString('name'); },
      () => { color = params.requiredString('color'); },
      () => params.string('description'),
      () => params.int('priority', { min: 0 }),
    ]);
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const description = params.string('description');
    const errors = fieldErrors(name, color, description);
    if (Object.keys(errors).length) throw validationError(errors);
    if (titleTaken(call, scope, name, null)) throw new HttpError(409, { message: 'Label already exists' });
    const label = insertLabel(call.sandbox.db, scope.project ? { projectId: scope.project.id } : { groupId: scope.group!.id },
      { title: name, color: normalizeColor(color)!, description }, timestamp(call.now));
    const priority = params.int('priority', { min: 0 });
    if (scope.project && priority !== undefined) setLabelPriority(call.sandbox.db, scope.project.id, label.id, priority);
    return c.json(entity(call, scope, label), 201);
  });

  routes.put(`${base}/:label_id`, {}, (c, call) => {
    const { params } = call;
    collectParamErrors([
      () => params.string('new_name'),
      () => params.string('color'),
      () => params.string('description'),
      () => { if (params.raw.priority !== null) params.int('priority', { min: 0 }); },
    ]);
    if (!['new_name', 'color', 'description', 'priority'].some((name) => params.raw[name] !== undefined)) {
      throw paramError('new_name, color, description, priority are missing, at least one parameter must be provided');
    }
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const label = findLabel(c, call, scope);
    const newName = params.string('new_name');
    const color = params.string('color');
    const description = params.string('description');
    // a project may prioritise its groups' labels; everything else is the owner's to change
    const changesLabel = newName !== undefined || color !== undefined || description !== undefined;
    if (changesLabel) ownLabel(scope, label);
    const errors = fieldErrors(newName, color, description);
    if (Object.keys(errors).length) throw validationError(errors);
    if (newName !== undefined && titleTaken(call, scope, newName, label.id)) throw validationError({ title: ['has already been taken'] });
    const { db } = call.sandbox;
    if (changesLabel) {
      db.prepare('UPDATE labels SET title = ?, color = ?, description = ?, updated_at = ? WHERE id = ?').run(
        newName ?? label.title, color !== undefined ? normalizeColor(color) : label.color, description ?? label.description, timestamp(call.now), label.id,
      );
    }
    if (scope.project && params.raw.priority !== undefined) {
      setLabelPriority(db, scope.project.id, label.id, params.raw.priority === null || params.raw.priority === '' ? null : params.int('priority')!);
    }
    return c.json(entity(call, scope, db.prepare('SELECT * FROM labels WHERE id = ?').get(label.id) as LabelRow));
  });

  routes.delete(`${base}/:label_id`, {}, (c, call) => {
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const label = findLabel(c, call, scope);
    ownLabel(scope, label);
    call.sandbox.db.prepare('DELETE FROM labels WHERE id = ?').run(label.id);
    return c.body(null, 204);
  });

  for (const action of ['subscribe', 'unsubscribe'] as const) {
    routes.post(`${base}/:label_id/${action}`, {}, (c, call) => {
      const scope = scopeOf(c, call, kind);
      const label = findLabel(c, call, scope);
      const want = action === 'subscribe';
      const projectScope = scope.project?.id ?? 0;
      const user = call.actor.user!.id;
      const current = explicitSubscription(call.sandbox.db, user, 'Label', label.id, projectScope) ?? false;
      // spec 2, 7: nothing to change is 304
      if (current === want) return c.body(null, 304);
      setSubscription(call.sandbox.db, user, 'Label', label.id, want, projectScope);
      return c.json(entity(call, scope, label), 201);
    });
  }
}

export function registerLabels(routes: Router): void {
  registerScope(routes, 'project');
  registerScope(routes, 'group');
}
