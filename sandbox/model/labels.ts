import type { Sandbox } from '../context.ts';
import type { Db } from '../db.ts';
import { groupChain, groupDescendants, type NamespaceRow, type ProjectRow } from './access.ts';

export interface LabelRow {
  id: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  color: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface MilestoneRow {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  start_date: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
}

/** A label or milestone belongs to a project or a group. */
export type Owner = { type: 'project'; project: ProjectRow } | { type: 'group'; group: NamespaceRow };

// the CSS names the platform accepts besides hex (Gitlab::Color's named colors, the common part)
const NAMED_COLORS: Record<string, string> = {
  black: '#000000', white: '#FFFFFF', red: '#FF0000', green: '#008000', blue: '#0000FF', yellow: '#FFFF00', orange: '#FFA500',
  purple: '#800080', gray: '#808080', grey: '#808080', pink: '#FFC0CB', brown: '#A52A2A', cyan: '#00FFFF', magenta: '#FF00FF',
  lime: '#00FF00', navy: '#000080', teal: '#008080', maroon: '#800000', olive: '#808000', silver: '#C0C0C0', indigo: '#4B0082',
  violet: '#EE82EE', gold: '#FFD700', coral: '#FF7F50', salmon: '#FA8072', crimson: '#DC143C', turquoise: '#40E0D0',
};

/** `#RGB`, `#RRGGBB` or a CSS color name, as the platform stores it; null when it is none of them. */
export function normalizeColor(input: string): string | null {
  const value = input.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value;
  if (/^#[0-9a-f]{3}$/i.test(value)) return value;
  return NAMED_COLORS[value.toLowerCase()] ?? null;
}

/** LabelsHelper#text_color_for_bg: dark text on light backgrounds (luminance above 186). */
export function textColorFor(color: string): string {
  let hex = color.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((char) => char + char).join('');
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#1F1E24' : '#FFFFFF';
}

/** Escapes text for the `*_html` fields (the sandbox renders no Markdown there, only safe text). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export const descriptionHtml = (text: string | null) => (text ? `<p dir="auto">${escapeHtml(text)}</p>` : '');

/** The groups whose labels and milestones a project sees: its group and every ancestor. */
export function projectGroupChain(db: Db, project: ProjectRow): number[] {
  const namespace = db.prepare('SELECT kind FROM namespaces WHERE id = ?').get(project.namespace_id) as { kind: string };
  return namespace.kind === 'group' ? groupChain(db, project.namespace_id) : [];
}

/** Labels a project may use: its own and those of its groups (nearest first on equal names). */
export function availableLabels(db: Db, project: ProjectRow): LabelRow[] {
  return db.prepare(
    `SELECT * FROM labels WHERE project_id = ? OR group_id IN (SELECT value FROM json_each(?)) ORDER BY title COLLATE NOCASE, project_id IS NULL, id`,
  ).all(project.id, JSON.stringify(projectGroupChain(db, project))) as LabelRow[];
}

/** Labels of a group: its own, with its ancestors' and descendants' when asked. */
export function groupLabels(db: Db, group: NamespaceRow, options: { ancestors: boolean; descendants: boolean }): LabelRow[] {
  const ids = new Set([group.id]);
  if (options.ancestors) for (const id of groupChain(db, group.id)) ids.add(id);
  if (options.descendants) for (const id of groupDescendants(db, group.id)) ids.add(id);
  return db.prepare('SELECT * FROM labels WHERE group_id IN (SELECT value FROM json_each(?)) ORDER BY title COLLATE NOCASE, id')
    .all(JSON.stringify([...ids])) as LabelRow[];
}

/** The project's label of that name (exact first, then case-insensitive); undefined when none. */
export function findLabelByName(labels: readonly LabelRow[], name: string): LabelRow | undefined {
  return labels.find((label) => label.title === name) ?? labels.find((label) => label.title.toLowerCase() === name.toLowerCase());
}

// the color of a label created on the fly (Label::DEFAULT_COLOR)
export const DEFAULT_LABEL_COLOR = '#6699cc';

export function insertLabel(db: Db, owner: { projectId?: number; groupId?: number }, input: { title: string; color: string; description?: string | null }, stamp: string): LabelRow {
  const result = db.prepare('INSERT INTO labels (project_id, group_id, title, color, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(owner.projectId ?? null, owner.groupId ?? null, input.title, input.color, input.description ?? null, stamp, stamp);
  return db.prepare('SELECT * FROM labels WHERE id = ?').get(result.lastInsertRowid) as LabelRow;
}

/** Label names to rows of the project, creating the missing ones as project labels (edit with labels/add_labels). */
export function resolveLabels(db: Db, project: ProjectRow, names: readonly string[], stamp: string, create: boolean): LabelRow[] {
  const available = availableLabels(db, project);
  const found: LabelRow[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    let label = findLabelByName(available, name);
    if (!label && create) {
      label = insertLabel(db, { projectId: project.id }, { title: name, color: DEFAULT_LABEL_COLOR }, stamp);
      available.push(label);
    }
    if (label && !found.some((known) => known.id === label!.id)) found.push(label);
  }
  return found;
}

/** LabelBasic: what issues (with_labels_details), board lists and events embed. */
export function labelBasic(label: LabelRow) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: descriptionHtml(label.description),
    text_color: textColorFor(label.color),
  };
}

export function labelPriority(db: Db, projectId: number, labelId: number): number | null {
  const row = db.prepare('SELECT priority FROM label_priorities WHERE project_id = ? AND label_id = ?').get(projectId, labelId) as { priority: number } | undefined;
  return row?.priority ?? null;
}

export function setLabelPriority(db: Db, projectId: number, labelId: number, priority: number | null): void {
  if (priority === null) db.prepare('DELETE FROM label_priorities WHERE project_id = ? AND label_id = ?').run(projectId, labelId);
  else db.prepare('INSERT INTO label_priorities (project_id, label_id, priority) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET priority = excluded.priority').run(projectId, labelId, priority);
}

// -- subscriptions, shared by labels and issues

export function explicitSubscription(db: Db, userId: number, type: string, id: number, projectId = 0): boolean | null {
  const row = db.prepare('SELECT subscribed FROM subscriptions WHERE user_id = ? AND subscribable_type = ? AND subscribable_id = ? AND project_id = ?')
    .get(userId, type, id, projectId) as { subscribed: number } | undefined;
  return row ? Boolean(row.subscribed) : null;
}

export function setSubscription(db: Db, userId: number, type: string, id: number, subscribed: boolean, projectId = 0): void {
  db.prepare(
    `INSERT INTO subscriptions (user_id, subscribable_type, subscribable_id, project_id, subscribed) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET subscribed = excluded.subscribed`,
  ).run(userId, type, id, projectId, subscribed ? 1 : 0);
}

/** The full label of the labels APIs; `project` set for a project's view (priority, subscription there). */
export function labelEntity(
  db: Db, label: LabelRow, viewer: number | null, project: ProjectRow | null, counts: boolean,
) {
  const projectScope = project?.id ?? 0;
  const subscribed = viewer === null ? false
    : (explicitSubscription(db, viewer, 'Label', label.id, projectScope) ?? (projectScope ? explicitSubscription(db, viewer, 'Label', label.id, 0) : null)) ?? false;
  const entity: Record<string, unknown> = { ...labelBasic(label) };
  if (counts) {
    const scope = project ? 'AND i.project_id = ?' : '';
    const scopeArgs = project ? [project.id] : [];
    const count = (state: string) => (db.prepare(
      `SELECT count(*) AS n FROM issue_labels l JOIN issues i ON i.id = l.issue_id WHERE l.label_id = ? AND i.state = ? ${scope}`,
    ).get(label.id, state, ...scopeArgs) as { n: number }).n;
    entity.open_issues_count = count('opened');
    entity.closed_issues_count = count('closed');
    // merge requests carry label names only; count the open ones that name this label
    entity.open_merge_requests_count = (db.prepare(
      `SELECT count(*) AS n FROM merge_requests m WHERE m.state = 'opened' ${project ? 'AND m.project_id = ?' : ''}
         AND EXISTS (SELECT 1 FROM json_each(m.labels) j WHERE lower(j.value) = lower(?))`,
    ).get(...scopeArgs, label.title) as { n: number }).n;
  }
  entity.subscribed = subscribed;
  if (project) entity.priority = labelPriority(db, project.id, label.id);
  entity.is_project_label = label.project_id !== null;
  entity.archived = false;
  return entity;
}

// -- milestones

export function milestoneWebUrl(sandbox: Sandbox, milestone: MilestoneRow): string {
  const { db } = sandbox;
  if (milestone.project_id !== null) {
    const project = db.prepare('SELECT path_with_namespace FROM projects WHERE id = ?').get(milestone.project_id) as { path_with_namespace: string };
    return `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/milestones/${milestone.iid}`;
  }
  const group = db.prepare('SELECT full_path FROM namespaces WHERE id = ?').get(milestone.group_id) as { full_path: string };
  return `${sandbox.config.externalUrl}/groups/${group.full_path}/-/milestones/${milestone.iid}`;
}

/** A milestone is expired once its due date has passed (Milestone#expired?). */
export function milestoneEntity(sandbox: Sandbox, milestone: MilestoneRow, now: Date) {
  const owner = milestone.project_id !== null ? { project_id: milestone.project_id } : { group_id: milestone.group_id };
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...owner,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: milestone.due_date !== null && milestone.due_date < now.toISOString().slice(0, 10),
    web_url: milestoneWebUrl(sandbox, milestone),
  };
}

/** Milestones a project's issues may take: its own and its groups'. */
export function availableMilestones(db: Db, project: ProjectRow): MilestoneRow[] {
  return db.prepare('SELECT * FROM milestones WHERE project_id = ? OR group_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(project.id, JSON.stringify(projectGroupChain(db, project))) as MilestoneRow[];
}

export function nextMilestoneIid(db: Db, owner: { projectId?: number; groupId?: number }): number {
  const row = owner.projectId !== undefined
    ? db.prepare('SELECT max(iid) AS iid FROM milestones WHERE project_id = ?').get(owner.projectId)
    : db.prepare('SELECT max(iid) AS iid FROM milestones WHERE group_id = ?').get(owner.groupId);
  return ((row as { iid: number | null }).iid ?? 0) + 1;
}

export function insertMilestone(
  db: Db, owner: { projectId?: number; groupId?: number },
  input: { title: string; description?: string | null; state?: 'active' | 'closed'; startDate?: string | null; dueDate?: string | null }, stamp: string,
): MilestoneRow {
  const result = db.prepare(
    'INSERT INTO milestones (iid, project_id, group_id, title, description, state, start_date, due_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(nextMilestoneIid(db, owner), owner.projectId ?? null, owner.groupId ?? null, input.title, input.description ?? null, input.state ?? 'active',
    input.startDate ?? null, input.dueDate ?? null, stamp, stamp);
  return db.prepare('SELECT * FROM milestones WHERE id = ?').get(result.lastInsertRowid) as MilestoneRow;
}
