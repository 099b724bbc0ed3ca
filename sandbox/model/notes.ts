import crypto from 'node:crypto';
import type { Sandbox, UserRow } from '../context.ts';
import { userBasic } from './entities.ts';

export interface NoteRow {
  id: number;
  noteable_type: 'Issue' | 'Snippet' | 'MergeRequest';
  noteable_id: number;
  project_id: number;
  author_id: number;
  body: string;
  system: number;
  internal: number;
  created_at: string;
  updated_at: string;
  /** The thread; null for notes written before threads, which are each their own (see discussionIdOf). */
  discussion_id: string | null;
  type: 'DiscussionNote' | 'DiffNote' | null;
  resolvable: number;
  resolved_by_id: number | null;
  resolved_at: string | null;
  /** A diff position as JSON, for a DiffNote. */
  position: string | null;
}

/** A note's thread id: 40 hex digits, as the platform's. */
export function discussionIdOf(note: Pick<NoteRow, 'id' | 'discussion_id'>): string {
  return note.discussion_id ?? crypto.createHash('sha1').update(`note:${note.id}`).digest('hex');
}

export const newDiscussionId = () => crypto.randomBytes(20).toString('hex');

export interface AwardRow {
  id: number;
  name: string;
  user_id: number;
  awardable_type: 'Issue' | 'Note' | 'MergeRequest';
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** Spec 2, 8: a note body holds at most this many characters. */
export const NOTE_BODY_MAX = 1_000_000;

/** The platform's `notes_create_limit` application setting: note creations per user and minute. */
export const DEFAULT_NOTES_CREATE_LIMIT = 300;

// the emoji names the sandbox knows (the platform's set is larger: these are the ones people react with)
const EMOJI = [
  'thumbsup', 'thumbsdown', 'smile', 'smiley', 'grinning', 'laughing', 'joy', 'rofl', 'slight_smile', 'wink', 'blush', 'heart', 'heart_eyes',
  'tada', 'rocket', 'eyes', 'fire', 'star', 'sparkles', 'clap', 'pray', 'muscle', 'ok_hand', 'wave', 'raised_hands', 'thinking', 'confused',
  'cry', 'sob', 'angry', 'rage', 'scream', 'sweat_smile', 'upside_down', 'nerd', 'sunglasses', 'skull', 'bug', 'warning', 'white_check_mark',
  'heavy_check_mark', 'x', 'question', 'exclamation', '100', 'zap', 'boom', 'bulb', 'memo', 'lock', 'unlock', 'hourglass', 'coffee', 'beer',
  'cake', 'gift', 'trophy', 'medal', 'checkered_flag', 'construction', 'rotating_light', 'see_no_evil', 'hear_no_evil', 'speak_no_evil',
  'robot', 'ghost', 'poop', 'unicorn', 'dog', 'cat', 'tanuki', 'point_up', 'point_down', 'point_left', 'point_right', 'arrow_up', 'arrow_down',
];
const ALIASES: Record<string, string> = { '+1': 'thumbsup', '-1': 'thumbsdown', thumbs_up: 'thumbsup', thumbs_down: 'thumbsdown' };
const KNOWN = new Set(EMOJI);

/** The stored name of an emoji (`+1` is `thumbsup`); null when the sandbox does not know it. */
export function emojiName(raw: string): string | null {
  const name = raw.trim().replace(/^:|:$/g, '');
  const resolved = ALIASES[name] ?? name;
  return KNOWN.has(resolved) ? resolved : null;
}

/** Note#award_emoji?: a body that is only `:name:` of a known emoji awards it instead. */
export function awardOnlyBody(body: string): string | null {
  const match = /^\s*:([a-z0-9_+-]+):\s*$/.exec(body);
  return match ? emojiName(match[1]) : null;
}

export function noteEntity(sandbox: Sandbox, note: NoteRow, author: UserRow | undefined, noteableIid: number | null, resolver?: UserRow) {
  const resolvable = Boolean(note.resolvable);
  return {
    id: note.id,
    type: note.type ?? null,
    body: note.body,
    author: author ? userBasic(sandbox, author) : null,
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: Boolean(note.system),
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    project_id: note.project_id,
    commit_id: null,
    ...(note.position ? { position: JSON.parse(note.position) as unknown } : {}),
    resolvable,
    ...(resolvable ? {
      resolved: note.resolved_at !== null,
      resolved_by: resolver ? userBasic(sandbox, resolver) : null,
      resolved_at: note.resolved_at,
    } : {}),
    confidential: Boolean(note.internal),
    internal: Boolean(note.internal),
    imported: false,
    imported_from: 'none',
    noteable_iid: noteableIid,
    commands_changes: {},
    attachment: null,
  };
}

export function awardEntity(sandbox: Sandbox, award: AwardRow, user: UserRow | undefined) {
  return {
    id: award.id,
    name: award.name,
    user: user ? userBasic(sandbox, user) : null,
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
    url: null,
  };
}

/** A thread: its notes in order; `individual_note` for a lone comment outside any thread. */
export function discussionEntity(sandbox: Sandbox, notes: readonly NoteRow[], users: Map<number, UserRow>, noteableIid: number | null) {
  return {
    id: discussionIdOf(notes[0]),
    individual_note: notes.length === 1 && notes[0].type === null,
    notes: notes.map((note) => noteEntity(sandbox, note, users.get(note.author_id), noteableIid, note.resolved_by_id === null ? undefined : users.get(note.resolved_by_id))),
  };
}
