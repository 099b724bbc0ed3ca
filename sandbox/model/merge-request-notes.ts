import type { Db } from '../db.ts';
import { insertNote, usernames } from './issues.ts';
import { draftlessTitle, isDraftTitle, type MergeRequestSnapshot } from './merge-requests.ts';

/**
 * The system notes an edit of a merge request records, as the platform's
 * Issuable::CommonSystemNotesService and MergeRequests::UpdateService write them: draft or
 * ready, a title change (ignoring the draft prefix), the description, assignees, reviewers and
 * the discussion lock. State, labels and milestone are resource events on the platform, not notes.
 */
export function recordMergeRequestChanges(db: Db, before: MergeRequestSnapshot, after: MergeRequestSnapshot, userId: number, at: string): void {
  const old = before.row;
  const row = after.row;
  const note = (body: string) => insertNote(db, { type: 'MergeRequest', noteableId: row.id, projectId: row.project_id, authorId: userId, body, system: true, internal: false, at });
  if (old.title !== row.title) {
    if (isDraftTitle(old.title) !== isDraftTitle(row.title)) note(`marked this merge request as **${isDraftTitle(row.title) ? 'draft' : 'ready'}**`);
    if (draftlessTitle(old.title) !== draftlessTitle(row.title)) note(`changed title from **{-${old.title}-}** to **{+${row.title}+}**`);
  }
  if (old.description !== row.description && old.description !== null) note('changed the description');
  const added = (from: number[], to: number[]) => to.filter((id) => !from.includes(id));
  const assigned = added(before.assigneeIds, after.assigneeIds);
  const unassigned = added(after.assigneeIds, before.assigneeIds);
  if (assigned.length || unassigned.length) {
    note([assigned.length ? `assigned to ${usernames(db, assigned)}` : '', unassigned.length ? `unassigned ${usernames(db, unassigned)}` : ''].filter(Boolean).join(' and '));
  }
  const requested = added(before.reviewerIds, after.reviewerIds);
  const withdrawn = added(after.reviewerIds, before.reviewerIds);
  if (requested.length || withdrawn.length) {
    note([requested.length ? `requested review from ${usernames(db, requested)}` : '', withdrawn.length ? `removed review request for ${usernames(db, withdrawn)}` : ''].filter(Boolean).join(' and '));
  }
  if (Boolean(old.discussion_locked) !== Boolean(row.discussion_locked)) {
    note(row.discussion_locked ? 'locked the discussion in this merge request' : 'unlocked the discussion in this merge request');
  }
}
