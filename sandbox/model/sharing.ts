import type { Actor, Sandbox } from '../context.ts';
import type { ParamReader } from '../http/params.ts';
import { conflict, notFound, paramError } from '../http/errors.ts';
import { MEMBER_ACCESS_LEVELS, findReadableGroup, type SourceType } from './access.ts';
import { timestamp, today } from './time.ts';

export interface GroupLinkRow {
  id: number;
  shared_type: SourceType;
  shared_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
  created_at: string;
}

/** Invites a group into a group or project (POST .../share); the caller's rights are checked before. */
export function shareWithGroup(sandbox: Sandbox, actor: Actor, target: { type: SourceType; id: number }, params: ParamReader, now: Date): GroupLinkRow {
  const groupId = params.requiredInt('group_id');
  const access = params.requiredInt('group_access');
  if (!(MEMBER_ACCESS_LEVELS as readonly number[]).includes(access)) throw paramError('group_access does not have a valid value');
  const expiresAt = params.date('expires_at') ?? null;
  if (expiresAt && expiresAt <= today(now)) throw paramError('expires_at must be in the future');
  const group = findReadableGroup(sandbox.db, actor, String(groupId), now);
  if (target.type === 'Namespace' && group.id === target.id) throw paramError('a group cannot be shared with itself');
  const existing = sandbox.db.prepare('SELECT 1 FROM group_links WHERE shared_type = ? AND shared_id = ? AND group_id = ?').get(target.type, target.id, group.id);
  if (existing) throw conflict('Group already shared with this group');
  const result = sandbox.db
    .prepare('INSERT INTO group_links (shared_type, shared_id, group_id, group_access, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(target.type, target.id, group.id, access, expiresAt, timestamp(now));
  return sandbox.db.prepare('SELECT * FROM group_links WHERE id = ?').get(Number(result.lastInsertRowid)) as GroupLinkRow;
}

/** DELETE .../share/:group_id: 404 when the group was not invited. */
export function removeGroupLink(sandbox: Sandbox, target: { type: SourceType; id: number }, groupId: string): void {
  const deleted = sandbox.db.prepare('DELETE FROM group_links WHERE shared_type = ? AND shared_id = ? AND group_id = ?').run(target.type, target.id, Number(groupId) || -1);
  if (deleted.changes === 0) throw notFound('Group Link');
}
