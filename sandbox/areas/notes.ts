import type { Context } from 'hono';
import type { AppEnv, Sandbox, UserRow } from '../context.ts';
import { HttpError, badRequest, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray, pageOfQuery } from '../http/pagination.ts';
import { ParamReader, collectParamErrors, type Params } from '../http/params.ts';
import { pathParam, type Call, type RouteOptions, type Router } from '../http/route.ts';
import { AccessLevel, type ProjectRow } from '../model/access.ts';
import { canAdminIssues, insertNote, projectRole } from '../model/issues.ts';
import {
  DEFAULT_NOTES_CREATE_LIMIT, NOTE_BODY_MAX, awardEntity, awardOnlyBody, discussionEntity, discussionIdOf, emojiName, newDiscussionId, noteEntity,
  type AwardRow, type NoteRow,
} from '../model/notes.ts';
import { canUpdateMergeRequest, projectRoleOf, pushesTraced } from '../model/merge-requests.ts';
import { timestamp } from '../model/time.ts';
import { issueOf, issueProject } from './issues.ts';
import { iidParam, mergeRequestProject, requestOf } from './merge-requests.ts';
import { snippetOf, snippetProject } from './snippets.ts';

/** What a note hangs on: an issue, a merge request or a project snippet. */
interface Noteable {
  type: 'Issue' | 'Snippet' | 'MergeRequest';
  id: number;
  iid: number | null;
  project: ProjectRow;
  locked: boolean;
  /** Planner and up: internal notes, locked discussions. */
  privileged: boolean;
  /** Who may resolve threads: a merge request's author and Developers and up; nobody elsewhere. */
  canResolve: boolean;
}

const NOTE_BASES: Record<Noteable['type'], string> = {
  Issue: '/projects/:id/issues/:issue_iid',
  MergeRequest: '/projects/:id/merge_requests/:merge_request_iid',
  Snippet: '/projects/:id/snippets/:snippet_id',
};

/** A request's notes and threads are read and written once a push's tracing of its line threads is done. */
const tracedFirst = (type: Noteable['type']): RouteOptions => (type === 'MergeRequest' ? { waitFor: (call) => pushesTraced(call.sandbox) } : {});

function noteableOf(c: Context<AppEnv>, call: Call, type: Noteable['type']): Noteable {
  if (type === 'MergeRequest') {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    return {
      type, id: row.id, iid: row.iid, project, locked: Boolean(row.discussion_locked),
      privileged: projectRoleOf(call.sandbox.db, call.actor, project, call.now) >= AccessLevel.PLANNER,
      canResolve: canUpdateMergeRequest(call.sandbox.db, call.actor, project, row, call.now),
    };
  }
  if (type === 'Issue') {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    return { type, id: issue.id, iid: issue.iid, project, locked: Boolean(issue.discussion_locked), privileged: canAdminIssues(call.sandbox.db, call.actor, project, call.now), canResolve: false };
  }
  const project = snippetProject(c, call);
  const snippet = snippetOf(c, call, project);
  return { type, id: snippet.id, iid: null, project, locked: false, privileged: projectRole(call.sandbox.db, call.actor, project, call.now) >= AccessLevel.PLANNER, canResolve: false };
}

function noteOf(c: Context<AppEnv>, call: Call, noteable: Noteable): NoteRow {
  const raw = pathParam(c, 'note_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('note_id is invalid');
  const note = call.sandbox.db.prepare('SELECT * FROM notes WHERE id = ? AND noteable_type = ? AND noteable_id = ?').get(Number(raw), noteable.type, noteable.id) as NoteRow | undefined;
  // internal notes are for Planner and up only
  if (!note || (note.internal && !noteable.privileged)) throw notFound('Note');
  return note;
}

function userById(sandbox: Sandbox, id: number): UserRow | undefined {
  return sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

const present = (call: Call, noteable: Noteable, note: NoteRow) => noteEntity(
  call.sandbox, note, userById(call.sandbox, note.author_id), noteable.iid, note.resolved_by_id === null ? undefined : userById(call.sandbox, note.resolved_by_id),
);

/** A note is edited and deleted by its author, or Maintainer and up (the platform's admin_note); a system note by nobody. */
function requireAdminNote(call: Call, noteable: Noteable, note: NoteRow): void {
  if (note.system) throw forbidden();
  if (note.author_id !== call.actor.user!.id && projectRole(call.sandbox.db, call.actor, noteable.project, call.now) < AccessLevel.MAINTAINER) throw forbidden();
}

/** Deletes a note with its awards. */
function deleteNote(call: Call, noteable: Noteable, note: NoteRow): void {
  requireAdminNote(call, noteable, note);
  call.sandbox.db.prepare("DELETE FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id = ?").run(note.id);
  call.sandbox.db.prepare('DELETE FROM notes WHERE id = ?').run(note.id);
}

function bodyErrors(body: string): void {
  if (body.length > NOTE_BODY_MAX) throw validationError({ note: [`is too long (maximum is ${NOTE_BODY_MAX} characters)`] });
  if (!body.trim()) throw validationError({ note: ["can't be blank"] });
}

// note creations of each user in the current minute, per sandbox (the platform's notes_create_limit throttle)
const noteWindows = new WeakMap<Sandbox, { window: number; counts: Map<number, number> }>();

function notesCreateLimit(sandbox: Sandbox): number {
  const row = sandbox.db.prepare("SELECT value FROM settings WHERE key = 'notes_create_limit'").get() as { value: string } | undefined;
  return row ? Number(row.value) : DEFAULT_NOTES_CREATE_LIMIT;
}

function throttleNoteCreation(call: Call): void {
  const limit = notesCreateLimit(call.sandbox);
  if (limit <= 0) return;
  const seconds = Math.floor(call.now.getTime() / 1000);
  const window = Math.floor(seconds / 60);
  let state = noteWindows.get(call.sandbox);
  if (!state || state.window !== window) {
    state = { window, counts: new Map() };
    noteWindows.set(call.sandbox, state);
  }
  const user = call.actor.user!.id;
  const count = (state.counts.get(user) ?? 0) + 1;
  state.counts.set(user, count);
  if (count > limit) {
    throw new HttpError(429, { message: 'This endpoint has been requested too many times. Try again later.' }, { 'Retry-After': String((window + 1) * 60 - seconds) });
  }
}

function awardAnswer(call: Call, award: AwardRow) {
  return awardEntity(call.sandbox, award, userById(call.sandbox, award.user_id));
}

/** Awards `name` to the target; the same award twice from one user is 400. */
function addAward(call: Call, type: AwardRow['awardable_type'], id: number, name: string): AwardRow {
  const { db } = call.sandbox;
  const user = call.actor.user!.id;
  if (db.prepare('SELECT 1 FROM award_emoji WHERE awardable_type = ? AND awardable_id = ? AND name = ? AND user_id = ?').get(type, id, name, user)) {
    throw validationError({ base: ['User has already been awarded this emoji'] });
  }
  const stamp = timestamp(call.now);
  const awardId = db.prepare('INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(name, user, type, id, stamp, stamp).lastInsertRowid;
  return db.prepare('SELECT * FROM award_emoji WHERE id = ?').get(awardId) as AwardRow;
}

/** A new note makes its issue or merge request updated now. */
function touch(call: Call, noteable: Noteable): void {
  if (noteable.type === 'Issue') call.sandbox.db.prepare('UPDATE issues SET updated_at = ? WHERE id = ?').run(timestamp(call.now), noteable.id);
  if (noteable.type === 'MergeRequest') call.sandbox.db.prepare('UPDATE merge_requests SET updated_at = ? WHERE id = ?').run(timestamp(call.now), noteable.id);
}

function registerNotesOn(routes: Router, type: Noteable['type']): void {
  const base = `${NOTE_BASES[type]}/notes`;
  const traced = tracedFirst(type);

  routes.get(base, { auth: 'public', ...traced }, (c, call) => {
    let sort: 'asc' | 'desc' = 'desc';
    let orderBy: 'created_at' | 'updated_at' = 'created_at';
    collectParamErrors([
      () => { sort = call.params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc'; },
      () => { orderBy = call.params.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at'; },
      () => call.params.oneOf('activity_filter', ['all_notes', 'only_comments', 'only_activity'] as const),
    ]);
    const noteable = noteableOf(c, call, type);
    const { db } = call.sandbox;
    const filter = call.params.string('activity_filter');
    const where = `noteable_type = ? AND noteable_id = ?${noteable.privileged ? '' : ' AND internal = 0'}${filter === 'only_comments' ? ' AND system = 0' : filter === 'only_activity' ? ' AND system = 1' : ''}`;
    const direction = sort.toUpperCase();
    const rows = pageOfQuery(c, call.params, {
      count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM notes WHERE ${where} LIMIT ?)`).get(noteable.type, noteable.id, cap + 1) as { n: number }).n,
      rows: (limit, offset) => db.prepare(`SELECT * FROM notes WHERE ${where} ORDER BY ${orderBy} ${direction}, id ${direction} LIMIT ? OFFSET ?`)
        .all(noteable.type, noteable.id, limit, offset) as NoteRow[],
    });
    const authors = new Map<number, UserRow>();
    for (const user of db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...new Set(rows.map((row) => row.author_id))])) as UserRow[]) {
      authors.set(user.id, user);
    }
    return c.json(rows.map((row) => noteEntity(call.sandbox, row, authors.get(row.author_id), noteable.iid)));
  });

  routes.get(`${base}/:note_id`, { auth: 'public', ...traced }, (c, call) => {
    const noteable = noteableOf(c, call, type);
    return c.json(present(call, noteable, noteOf(c, call, noteable)));
  });

  routes.post(base, traced, (c, call) => {
    const { params } = call;
    let body = '';
    collectParamErrors([
      () => { body = params.requiredString('body'); },
      () => params.bool('internal'),
      () => params.bool('confidential'),
      () => params.dateTime('created_at'),
    ]);
    const noteable = noteableOf(c, call, type);
    const { db } = call.sandbox;
    // internal overrides the deprecated confidential (spec 2, 4.2)
    const internal = type === 'Issue' && (params.bool('internal') ?? params.bool('confidential') ?? false);
    if (internal && !noteable.privileged) throw forbidden();
    if (noteable.locked && !noteable.privileged) throw forbidden('Your note could not be created because the discussion is locked');
    let createdAt = timestamp(call.now);
    const requested = params.dateTime('created_at');
    if (requested) {
      if (projectRole(db, call.actor, noteable.project, call.now) < AccessLevel.OWNER) throw forbidden();
      if (requested < '1970-01-01T00:00:00.001Z') throw paramError('created_at is invalid');
      createdAt = requested;
    }
    bodyErrors(body);
    throttleNoteCreation(call);
    const emoji = awardOnlyBody(body);
    if (emoji && type !== 'Snippet') return c.json(awardAnswer(call, addAward(call, type, noteable.id, emoji)), 201);
    const id = insertNote(db, { type, noteableId: noteable.id, projectId: noteable.project.id, authorId: call.actor.user!.id, body, system: false, internal, at: createdAt });
    touch(call, noteable);
    return c.json(present(call, noteable, db.prepare('SELECT * FROM notes WHERE id = ?').get(id) as NoteRow), 201);
  });

  routes.put(`${base}/:note_id`, traced, (c, call) => {
    const { params } = call;
    collectParamErrors([() => params.string('body'), () => params.bool('confidential'), () => params.bool('internal')]);
    const noteable = noteableOf(c, call, type);
    const note = noteOf(c, call, noteable);
    requireAdminNote(call, noteable, note);
    const body = params.string('body');
    if (body === undefined) throw paramError('body is missing');
    bodyErrors(body);
    call.sandbox.db.prepare('UPDATE notes SET body = ?, updated_at = ? WHERE id = ?').run(body, timestamp(call.now), note.id);
    return c.json(present(call, noteable, call.sandbox.db.prepare('SELECT * FROM notes WHERE id = ?').get(note.id) as NoteRow));
  });

  routes.delete(`${base}/:note_id`, traced, (c, call) => {
    const noteable = noteableOf(c, call, type);
    deleteNote(call, noteable, noteOf(c, call, noteable));
    return c.body(null, 204);
  });
}

/** Award emoji on an issue or on one of its notes: list, get, award, take back (spec 2, 2.1 upvotes/downvotes). */
function registerAwards(routes: Router, type: 'Issue' | 'MergeRequest', on: 'noteable' | 'note'): void {
  const base = on === 'noteable' ? `${NOTE_BASES[type]}/award_emoji` : `${NOTE_BASES[type]}/notes/:note_id/award_emoji`;
  const target = (c: Context<AppEnv>, call: Call): { type: AwardRow['awardable_type']; id: number } => {
    const noteable = noteableOf(c, call, type);
    return on === 'noteable' ? { type, id: noteable.id } : { type: 'Note', id: noteOf(c, call, noteable).id };
  };
  const awardOf = (c: Context<AppEnv>, call: Call, of: { type: string; id: number }) => {
    const raw = pathParam(c, 'award_id');
    if (!/^\d{1,15}$/.test(raw)) throw paramError('award_id is invalid');
    const award = call.sandbox.db.prepare('SELECT * FROM award_emoji WHERE id = ? AND awardable_type = ? AND awardable_id = ?').get(Number(raw), of.type, of.id) as AwardRow | undefined;
    if (!award) throw notFound('Award Emoji');
    return award;
  };

  routes.get(base, { auth: 'public' }, (c, call) => {
    const of = target(c, call);
    const { db } = call.sandbox;
    const rows = pageOfQuery(c, call.params, {
      count: () => (db.prepare('SELECT count(*) AS n FROM award_emoji WHERE awardable_type = ? AND awardable_id = ?').get(of.type, of.id) as { n: number }).n,
      rows: (limit, offset) => db.prepare('SELECT * FROM award_emoji WHERE awardable_type = ? AND awardable_id = ? ORDER BY id LIMIT ? OFFSET ?').all(of.type, of.id, limit, offset) as AwardRow[],
    });
    return c.json(rows.map((award) => awardAnswer(call, award)));
  });

  routes.get(`${base}/:award_id`, { auth: 'public' }, (c, call) => c.json(awardAnswer(call, awardOf(c, call, target(c, call)))));

  routes.post(base, {}, (c, call) => {
    let raw = '';
    collectParamErrors([() => { raw = call.params.requiredString('name'); }]);
    const of = target(c, call);
    const name = emojiName(raw);
    if (!name) throw validationError({ name: ['is not a valid emoji name'] });
    return c.json(awardAnswer(call, addAward(call, of.type, of.id, name)), 201);
  });

  routes.delete(`${base}/:award_id`, {}, (c, call) => {
    const award = awardOf(c, call, target(c, call));
    // an award is taken back by whoever gave it (administrators too)
    if (award.user_id !== call.actor.user!.id && !call.actor.user!.is_admin) throw forbidden();
    call.sandbox.db.prepare('DELETE FROM award_emoji WHERE id = ?').run(award.id);
    return c.body(null, 204);
  });
}

export function registerNotes(routes: Router): void {
  registerNotesOn(routes, 'Issue');
  registerNotesOn(routes, 'Snippet');
  registerNotesOn(routes, 'MergeRequest');
  for (const type of ['Issue', 'MergeRequest'] as const) {
    registerAwards(routes, type, 'noteable');
    registerAwards(routes, type, 'note');
    registerDiscussions(routes, type);
  }
}

// -- discussions: threads of notes; on merge requests they can be resolved and sit on a line of the changes

const SHA = /^[0-9a-f]{40}$/;

/** A diff position (`position[...]`), checked as the platform's Gitlab::Diff::Position needs it; stored as JSON. */
function positionOf(call: Call): string | null {
  const raw = call.params.raw.position;
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw paramError('position is invalid');
  const position = new ParamReader(raw as Params);
  const out: Record<string, unknown> = {};
  collectParamErrors([
    () => { out.position_type = position.oneOf('position_type', ['text', 'image', 'file'] as const) ?? (() => { throw paramError('position[position_type] is missing'); })(); },
    ...(['base_sha', 'start_sha', 'head_sha'] as const).map((key) => () => {
      const value = position.string(key);
      if (value === undefined) throw paramError(`position[${key}] is missing`);
      if (!SHA.test(value)) throw paramError(`position[${key}] is invalid`);
      out[key] = value;
    }),
    () => { out.old_path = position.string('old_path') ?? null; },
    () => { out.new_path = position.string('new_path') ?? null; },
    () => { out.old_line = position.int('old_line', { min: 1 }) ?? null; },
    () => { out.new_line = position.int('new_line', { min: 1 }) ?? null; },
  ]);
  const errors: string[] = [];
  if (!out.old_path && !out.new_path) errors.push("path can't be blank");
  if (out.position_type === 'text' && out.old_line === null && out.new_line === null) errors.push("line can't be blank");
  if (errors.length) throw badRequest(`Note {:position=>[${errors.map((error) => JSON.stringify(error)).join(', ')}]}`);
  out.old_path ??= out.new_path;
  out.new_path ??= out.old_path;
  return JSON.stringify(out);
}

/** The noteable's visible notes grouped into threads, oldest thread first. */
function threadsOf(call: Call, noteable: Noteable): NoteRow[][] {
  const rows = call.sandbox.db.prepare(
    `SELECT * FROM notes WHERE noteable_type = ? AND noteable_id = ?${noteable.privileged ? '' : ' AND internal = 0'} ORDER BY created_at, id`,
  ).all(noteable.type, noteable.id) as NoteRow[];
  const threads = new Map<string, NoteRow[]>();
  for (const row of rows) {
    const id = discussionIdOf(row);
    if (!threads.has(id)) threads.set(id, []);
    threads.get(id)!.push(row);
  }
  return [...threads.values()];
}

function threadOf(c: Context<AppEnv>, call: Call, noteable: Noteable): NoteRow[] {
  const id = pathParam(c, 'discussion_id');
  const thread = threadsOf(call, noteable).find((notes) => discussionIdOf(notes[0]) === id);
  if (!thread) throw notFound('Discussion');
  return thread;
}

function usersOf(call: Call, notes: readonly NoteRow[]): Map<number, UserRow> {
  const ids = new Set<number>();
  for (const note of notes) {
    ids.add(note.author_id);
    if (note.resolved_by_id !== null) ids.add(note.resolved_by_id);
  }
  const users = call.sandbox.db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...ids])) as UserRow[];
  return new Map(users.map((user) => [user.id, user]));
}

function discussionAnswer(call: Call, noteable: Noteable, notes: readonly NoteRow[]) {
  return discussionEntity(call.sandbox, notes, usersOf(call, notes), noteable.iid);
}

function reloadThread(call: Call, noteable: Noteable, discussionId: string): NoteRow[] {
  return threadsOf(call, noteable).find((notes) => discussionIdOf(notes[0]) === discussionId)!;
}

/** Resolves or reopens the resolvable notes given; 403 for callers who may not, 400 where nothing can be resolved. */
function setResolved(call: Call, noteable: Noteable, notes: readonly NoteRow[], resolved: boolean): void {
  if (!noteable.canResolve) throw forbidden();
  const resolvable = notes.filter((note) => note.resolvable);
  if (!resolvable.length) throw badRequest('Discussion is not resolvable');
  const stamp = timestamp(call.now);
  const update = call.sandbox.db.prepare('UPDATE notes SET resolved_at = ?, resolved_by_id = ? WHERE id = ? AND (resolved_at IS NULL) = ?');
  call.sandbox.db.transaction(() => {
    for (const note of resolvable) update.run(resolved ? stamp : null, resolved ? call.actor.user!.id : null, note.id, resolved ? 1 : 0);
  })();
}

function registerDiscussions(routes: Router, type: 'Issue' | 'MergeRequest'): void {
  const base = `${NOTE_BASES[type]}/discussions`;
  const traced = tracedFirst(type);

  routes.get(base, { auth: 'public', ...traced }, (c, call) => {
    const noteable = noteableOf(c, call, type);
    const threads = pageOfArray(c, call.params, threadsOf(call, noteable));
    const users = usersOf(call, threads.flat());
    return c.json(threads.map((notes) => discussionEntity(call.sandbox, notes, users, noteable.iid)));
  });

  routes.get(`${base}/:discussion_id`, { auth: 'public', ...traced }, (c, call) => {
    const noteable = noteableOf(c, call, type);
    return c.json(discussionAnswer(call, noteable, threadOf(c, call, noteable)));
  });

  // a new thread, on a merge request optionally on a line of its changes
  routes.post(base, traced, (c, call) => {
    const { params } = call;
    let body = '';
    collectParamErrors([() => { body = params.requiredString('body'); }, () => params.dateTime('created_at'), () => params.string('commit_id'), () => params.bool('internal')]);
    const noteable = noteableOf(c, call, type);
    if (noteable.locked && !noteable.privileged) throw forbidden('Your note could not be created because the discussion is locked');
    const position = type === 'MergeRequest' ? positionOf(call) : null;
    bodyErrors(body);
    throttleNoteCreation(call);
    const discussionId = newDiscussionId();
    call.sandbox.db.transaction(() => {
      insertNote(call.sandbox.db, {
        type, noteableId: noteable.id, projectId: noteable.project.id, authorId: call.actor.user!.id, body, system: false, internal: false, at: timestamp(call.now),
        thread: { discussionId, type: position ? 'DiffNote' : 'DiscussionNote', resolvable: type === 'MergeRequest', position },
      });
      touch(call, noteable);
    })();
    return c.json(discussionAnswer(call, noteable, reloadThread(call, noteable, discussionId)), 201);
  });

  // a reply; replying to a lone comment makes it a thread
  routes.post(`${base}/:discussion_id/notes`, traced, (c, call) => {
    let body = '';
    collectParamErrors([() => { body = call.params.requiredString('body'); }, () => call.params.dateTime('created_at')]);
    const noteable = noteableOf(c, call, type);
    const thread = threadOf(c, call, noteable);
    if (noteable.locked && !noteable.privileged) throw forbidden('Your note could not be created because the discussion is locked');
    if (thread[0].system) throw badRequest('Discussion is a system note');
    bodyErrors(body);
    throttleNoteCreation(call);
    const discussionId = discussionIdOf(thread[0]);
    const { db } = call.sandbox;
    const id = db.transaction(() => {
      const first = thread[0];
      const resolvable = type === 'MergeRequest';
      if (first.type === null) {
        db.prepare("UPDATE notes SET discussion_id = ?, type = 'DiscussionNote', resolvable = ? WHERE id = ?").run(discussionId, resolvable ? 1 : 0, first.id);
      }
      const noteId = insertNote(db, {
        type, noteableId: noteable.id, projectId: noteable.project.id, authorId: call.actor.user!.id, body, system: false, internal: Boolean(first.internal), at: timestamp(call.now),
        thread: { discussionId, type: 'DiscussionNote', resolvable, position: null },
      });
      // a reply to a resolved thread reopens it, as on the platform
      if (resolvable) db.prepare('UPDATE notes SET resolved_at = NULL, resolved_by_id = NULL WHERE discussion_id = ?').run(discussionId);
      touch(call, noteable);
      return noteId;
    })();
    return c.json(present(call, noteable, db.prepare('SELECT * FROM notes WHERE id = ?').get(id) as NoteRow), 201);
  });

  routes.put(`${base}/:discussion_id`, traced, (c, call) => {
    let resolved = false;
    collectParamErrors([() => {
      const value = call.params.bool('resolved');
      if (value === undefined) throw paramError('resolved is missing');
      resolved = value;
    }]);
    const noteable = noteableOf(c, call, type);
    const thread = threadOf(c, call, noteable);
    setResolved(call, noteable, thread, resolved);
    return c.json(discussionAnswer(call, noteable, reloadThread(call, noteable, discussionIdOf(thread[0]))));
  });

  // a note of a thread: edit its text (its author, Maintainers) or resolve it (who may resolve)
  routes.put(`${base}/:discussion_id/notes/:note_id`, traced, (c, call) => {
    const { params } = call;
    collectParamErrors([() => params.string('body'), () => params.bool('resolved')]);
    const noteable = noteableOf(c, call, type);
    const thread = threadOf(c, call, noteable);
    const note = noteOf(c, call, noteable);
    if (!thread.some((row) => row.id === note.id)) throw notFound('Note');
    const body = params.string('body');
    const resolved = params.bool('resolved');
    if (body === undefined && resolved === undefined) throw paramError('body, resolved are missing, exactly one parameter must be provided');
    if (body !== undefined && resolved !== undefined) throw paramError('body, resolved are mutually exclusive');
    if (resolved !== undefined) {
      setResolved(call, noteable, [note], resolved);
    } else {
      requireAdminNote(call, noteable, note);
      bodyErrors(body!);
      call.sandbox.db.prepare('UPDATE notes SET body = ?, updated_at = ? WHERE id = ?').run(body, timestamp(call.now), note.id);
    }
    return c.json(present(call, noteable, call.sandbox.db.prepare('SELECT * FROM notes WHERE id = ?').get(note.id) as NoteRow));
  });

  routes.delete(`${base}/:discussion_id/notes/:note_id`, traced, (c, call) => {
    const noteable = noteableOf(c, call, type);
    const thread = threadOf(c, call, noteable);
    const note = noteOf(c, call, noteable);
    if (!thread.some((row) => row.id === note.id)) throw notFound('Note');
    deleteNote(call, noteable, note);
    return c.body(null, 204);
  });
}
