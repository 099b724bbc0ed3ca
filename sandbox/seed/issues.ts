import type { Sandbox, UserRow } from '../context.ts';
import type { NamespaceRow, ProjectRow } from '../model/access.ts';
import { POSITION_GAP } from '../model/issues.ts';
import { timestamp } from '../model/time.ts';
import { generator, type Random } from './random.ts';

/** How many issues the demo tracker holds: enough to make lists and boards page. */
export const DEMO_TRACKER_ISSUES = 3000;

const DAY_MS = 86_400_000;

const AREAS = ['checkout', 'search', 'login', 'settings page', 'dashboard', 'notifications', 'image upload', 'dark mode', 'onboarding', 'billing page', 'profile', 'sidebar', 'date picker', 'data table', 'export to CSV'];
const PROBLEMS = ['crashes when', 'is slow when', 'shows the wrong total after', 'loses input after', 'flickers while', 'ignores the locale during', 'breaks keyboard focus after', 'double-submits on'];
const TRIGGERS = ['switching tabs', 'a network timeout', 'pasting long text', 'resizing the window', 'signing out', 'a slow 3G connection', 'reloading', 'changing the language'];
const FEATURES = ['Add bulk actions to', 'Support drag and drop in', 'Remember filters on', 'Keyboard shortcuts for', 'Empty state for', 'Accessibility pass on', 'Lazy-load', 'Telemetry for'];

const GROUP_LABELS: Array<[string, string, string | null]> = [
  ['priority::1', '#dc143c', 'Drop everything'],
  ['priority::2', '#e9573f', 'This milestone'],
  ['priority::3', '#f0ad4e', 'Next milestone'],
  ['priority::4', '#a8d695', 'Some day'],
  ['workflow::triage', '#8e44ad', 'Needs a first look'],
  ['workflow::ready', '#428bca', 'Refined and estimated'],
  ['workflow::in dev', '#5cb85c', 'Being built'],
  ['workflow::in review', '#0033cc', 'Merge request open'],
  ['workflow::blocked', '#330066', 'Waiting on someone'],
];
const PROJECT_LABELS: Array<[string, string, string | null]> = [
  ['bug', '#d9534f', 'Something does not work as documented'],
  ['feature', '#69d100', 'New behaviour'],
  ['performance', '#ad8d43', null],
  ['accessibility', '#004e00', 'WCAG 2.2 AA'],
  ['security', '#ff0000', 'Handle confidentially'],
  ['documentation', '#f4f4f4', 'Docs only'],
  ['good first issue', '#7f8c8d', 'Small and well described'],
  ['tech debt', '#6699cc', null],
];

function description(random: Random, mention: string, other: string, iid: number, kind: 'bug' | 'feature'): string {
  const parts: string[] = [];
  if (kind === 'bug') {
    parts.push(`### Steps to reproduce\n\n1. Open the app\n2. ${random.pick(TRIGGERS)}\n3. Look at the result\n\n### What happens\n\nIt ${random.pick(PROBLEMS)} ${random.pick(TRIGGERS)}. Reported by @${mention}.`);
    if (random.chance(0.5)) parts.push('```ts\nconst total = items.reduce((sum, item) => sum + item.price, 0);\n// expected 42, got NaN\n```');
    if (random.chance(0.3)) parts.push('| Browser | Version | Broken |\n| --- | --- | --- |\n| Firefox | 128 | yes |\n| Chrome | 126 | no |\n| Safari | 17 | yes |');
  } else {
    parts.push(`### Why\n\nCustomers asked for this in the last survey; see https://example.com/research/${iid} and #${Math.max(1, iid - random.int(1, 40))}.`);
    const tasks = random.int(2, 6);
    const done = random.int(0, tasks);
    parts.push(`### Tasks\n\n${Array.from({ length: tasks }, (_, index) => `- [${index < done ? 'x' : ' '}] Step ${index + 1}`).join('\n')}`);
    if (random.chance(0.3)) parts.push(`cc @${other} for design, ~accessibility to check.`);
  }
  return parts.join('\n\n');
}

/**
 * The demo tracker: one project with DEMO_TRACKER_ISSUES issues (scoped labels, past and
 * upcoming milestones, assignees, confidential ones, threads with system notes), a few issues
 * in projects of other subgroups, and a group board over all of them. Inside the caller's
 * transaction, with one prepared statement per table.
 */
export function seedIssues(
  sandbox: Sandbox,
  spec: { tracker: ProjectRow; others: ProjectRow[]; group: NamespaceRow; people: UserRow[]; triager: UserRow },
  anchor: Date,
): void {
  const { db } = sandbox;
  const random = generator(0x155_0e5);
  const stamp = (daysAgo: number) => timestamp(new Date(anchor.getTime() - daysAgo * DAY_MS));
  const created = stamp(400);

  const insertLabel = db.prepare('INSERT INTO labels (project_id, group_id, title, color, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const groupLabels = new Map<string, number>();
  for (const [title, color, text] of GROUP_LABELS) groupLabels.set(title, Number(insertLabel.run(null, spec.group.id, title, color, text, created, created).lastInsertRowid));
  const projectLabels = new Map<string, number>();
  for (const [title, color, text] of PROJECT_LABELS) projectLabels.set(title, Number(insertLabel.run(spec.tracker.id, null, title, color, text, created, created).lastInsertRowid));
  const priority = db.prepare('INSERT INTO label_priorities (project_id, label_id, priority) VALUES (?, ?, ?)');
  GROUP_LABELS.slice(0, 4).forEach(([title], index) => priority.run(spec.tracker.id, groupLabels.get(title)!, index));
  priority.run(spec.tracker.id, projectLabels.get('security')!, 0);

  const insertMilestone = db.prepare('INSERT INTO milestones (iid, project_id, group_id, title, description, state, start_date, due_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const day = (offset: number) => stamp(-offset).slice(0, 10);
  // releases every four weeks: the old ones closed, the current one started, two ahead
  const milestones: Array<{ id: number; state: string; due: number }> = [];
  for (let index = 0; index < 8; index++) {
    const due = -140 + index * 28;
    const state = due < -7 ? 'closed' : 'active';
    const id = Number(insertMilestone.run(index + 1, spec.tracker.id, null, `Release 3.${index}`, `Ships on ${day(due)}.`, state, day(due - 27), day(due), created, created).lastInsertRowid);
    milestones.push({ id, state, due });
  }
  const groupMilestone = Number(insertMilestone.run(1, null, spec.group.id, 'Q3 platform goals', 'Company-wide engineering goals.', 'active', day(-30), day(60), created, created).lastInsertRowid);

  const insertIssue = db.prepare(
    `INSERT INTO issues (iid, project_id, title, description, state, issue_type, author_id, milestone_id, confidential, discussion_locked, due_date, weight,
       relative_position, time_estimate, closed_at, closed_by_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertIssueLabel = db.prepare('INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)');
  const insertAssignee = db.prepare('INSERT OR IGNORE INTO issue_assignees (issue_id, user_id, position) VALUES (?, ?, ?)');
  const insertNote = db.prepare('INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertLabelEvent = db.prepare("INSERT INTO resource_label_events (issue_id, label_id, user_id, action, created_at) VALUES (?, ?, ?, 'add', ?)");
  const insertStateEvent = db.prepare("INSERT INTO resource_state_events (issue_id, user_id, state, created_at) VALUES (?, ?, 'closed', ?)");
  const insertMilestoneEvent = db.prepare("INSERT INTO resource_milestone_events (issue_id, milestone_id, user_id, action, state, created_at) VALUES (?, ?, ?, 'add', 'opened', ?)");
  const insertAward = db.prepare("INSERT OR IGNORE INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) VALUES (?, ?, 'Issue', ?, ?, ?)");
  const insertTimelog = db.prepare('INSERT INTO timelogs (issue_id, user_id, time_spent, summary, created_at) VALUES (?, ?, ?, NULL, ?)');
  const comments = ['I can reproduce this on staging.', 'Is this still happening after the last deploy?', 'Looks like a regression from the router upgrade.', 'Picking this up.', 'Merge request is up for review.', 'Confirmed fixed on main :tada:', 'Could we add a test for this?', 'Moving to the next release, sorry.'];
  const workflow = GROUP_LABELS.slice(4).map(([title]) => groupLabels.get(title)!);

  const seedProject = (project: ProjectRow, count: number, people: UserRow[]) => {
    for (let iid = 1; iid <= count; iid++) {
      const kind = random.chance(0.55) ? 'bug' : 'feature';
      const createdDaysAgo = 380 * (1 - iid / (count + 1)) + random.next();
      const createdAt = stamp(createdDaysAgo);
      const author = random.pick(people);
      const closed = createdDaysAgo > 20 && random.chance(Math.min(0.85, createdDaysAgo / 300));
      const closedDaysAgo = createdDaysAgo * random.next() * 0.9;
      const milestone = random.chance(0.7) ? random.pick(milestones.filter((m) => !closed || m.state === 'closed' || random.chance(0.2))) : null;
      const milestoneId = project.id === spec.tracker.id ? milestone?.id ?? null : random.chance(0.4) ? groupMilestone : null;
      const title = kind === 'bug'
        ? `${random.pick(AREAS).replace(/^./, (c) => c.toUpperCase())} ${random.pick(PROBLEMS)} ${random.pick(TRIGGERS)}`
        : `${random.pick(FEATURES)} the ${random.pick(AREAS)}`;
      const labelIds = [groupLabels.get(`priority::${random.weighted([[1, 1], [2, 3], [3, 4], [4, 2]] as const)}`)!];
      if (project.id === spec.tracker.id) {
        labelIds.push(projectLabels.get(kind)!);
        if (random.chance(0.25)) labelIds.push(projectLabels.get(random.pick(['performance', 'accessibility', 'documentation', 'good first issue', 'tech debt']))!);
      }
      if (!closed) labelIds.push(random.pick(workflow));
      const confidential = random.chance(0.04);
      if (confidential && project.id === spec.tracker.id) labelIds.push(projectLabels.get('security')!);
      const updatedAt = stamp(closed ? closedDaysAgo : createdDaysAgo * random.next());
      const id = Number(insertIssue.run(
        iid, project.id, title, description(random, random.pick(people).username, random.pick(people).username, iid, kind), closed ? 'closed' : 'opened',
        random.chance(0.03) ? 'incident' : 'issue', author.id, milestoneId, confidential ? 1 : 0, random.chance(0.01) ? 1 : null,
        milestone && random.chance(0.3) ? day(milestone.due - random.int(0, 10)) : null, random.chance(0.5) ? random.int(1, 8) : null,
        iid * POSITION_GAP, random.chance(0.3) ? random.int(1, 16) * 3600 : 0, closed ? stamp(closedDaysAgo) : null, closed ? random.pick(people).id : null,
        createdAt, updatedAt,
      ).lastInsertRowid);
      for (const labelId of labelIds) {
        insertIssueLabel.run(id, labelId);
        insertLabelEvent.run(id, labelId, spec.triager.id, createdAt);
      }
      if (milestoneId !== null) insertMilestoneEvent.run(id, milestoneId, spec.triager.id, createdAt);
      const assignees = random.weighted([[0, 3], [1, 6], [2, 1]] as const);
      const chosen = random.shuffle(people).slice(0, assignees);
      chosen.forEach((user, position) => insertAssignee.run(id, user.id, position));
      if (chosen.length) insertNote.run('Issue', id, project.id, spec.triager.id, `assigned to ${chosen.map((user) => `@${user.username}`).join(' and ')}`, 1, 0, createdAt, createdAt);
      const thread = random.weighted([[0, 3], [1, 3], [2, 2], [4, 1], [8, 0.3]] as const);
      for (let index = 0; index < thread; index++) {
        const at = stamp(createdDaysAgo - (createdDaysAgo - (closed ? closedDaysAgo : 0)) * ((index + 1) / (thread + 1)));
        insertNote.run('Issue', id, project.id, random.pick(people).id, random.pick(comments), 0, random.chance(0.05) ? 1 : 0, at, at);
      }
      if (closed) insertStateEvent.run(id, spec.triager.id, stamp(closedDaysAgo));
      if (random.chance(0.3)) insertAward.run('thumbsup', random.pick(people).id, id, createdAt, createdAt);
      if (random.chance(0.05)) insertAward.run('thumbsdown', random.pick(people).id, id, createdAt, createdAt);
      if (closed && random.chance(0.3)) insertTimelog.run(id, random.pick(people).id, random.int(1, 12) * 1800, stamp(closedDaysAgo));
    }
    db.prepare('INSERT INTO issue_iids (project_id, last_iid) VALUES (?, ?)').run(project.id, count);
  };

  seedProject(spec.tracker, DEMO_TRACKER_ISSUES, spec.people);
  for (const project of spec.others) seedProject(project, 40, spec.people);

  // boards: the tracker's by workflow, and the group's over its subgroups' projects
  const insertBoard = db.prepare('INSERT INTO boards (project_id, group_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const insertList = db.prepare("INSERT INTO board_lists (board_id, list_type, label_id, position) VALUES (?, 'label', ?, ?)");
  const projectBoard = Number(insertBoard.run(spec.tracker.id, null, 'Development', created, created).lastInsertRowid);
  const groupBoard = Number(insertBoard.run(null, spec.group.id, 'Engineering workflow', created, created).lastInsertRowid);
  workflow.forEach((labelId, position) => {
    insertList.run(projectBoard, labelId, position);
    insertList.run(groupBoard, labelId, position);
  });
  const priorities = Number(insertBoard.run(null, spec.group.id, 'Priorities', created, created).lastInsertRowid);
  GROUP_LABELS.slice(0, 4).forEach(([title], position) => insertList.run(priorities, groupLabels.get(title)!, position));
}
