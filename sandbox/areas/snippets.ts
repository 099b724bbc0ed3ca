import type { Context } from 'hono';
import type { AppEnv, Sandbox, UserRow } from '../context.ts';
import { forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, VISIBILITIES, canReadProject, findReadableProject, type ProjectRow } from '../model/access.ts';
import { projectSettings, userBasic } from '../model/entities.ts';
import { projectRole } from '../model/issues.ts';
import { timestamp } from '../model/time.ts';

export interface SnippetRow {
  id: number;
  project_id: number;
  author_id: number;
  title: string;
  description: string | null;
  file_name: string;
  content: string;
  visibility: string;
  created_at: string;
  updated_at: string;
}

/** read_snippet: the snippets feature is on, and a private snippet or project needs a member. */
function canReadSnippets(call: Call, project: ProjectRow): boolean {
  if (!canReadProject(call.sandbox.db, call.actor, project, call.now)) return false;
  const level = projectSettings(project).snippets_access_level;
  if (level === 'disabled') return false;
  return level === 'enabled' && project.visibility !== 'private' ? true : projectRole(call.sandbox.db, call.actor, project, call.now) >= AccessLevel.GUEST;
}

export function snippetProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  if (!canReadSnippets(call, project)) throw forbidden();
  return project;
}

/** A snippet of the project; a private one is 404 to those who are not members. */
export function snippetOf(c: Context<AppEnv>, call: Call, project: ProjectRow): SnippetRow {
  const raw = pathParam(c, 'snippet_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('snippet_id is invalid');
  const row = call.sandbox.db.prepare('SELECT * FROM snippets WHERE id = ? AND project_id = ?').get(Number(raw), project.id) as SnippetRow | undefined;
  const member = projectRole(call.sandbox.db, call.actor, project, call.now) >= AccessLevel.GUEST;
  if (!row || (row.visibility === 'private' && !member && row.author_id !== call.actor.user?.id)) throw notFound('Snippet');
  return row;
}

function snippetEntity(sandbox: Sandbox, project: ProjectRow, row: SnippetRow) {
  const author = sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(row.author_id) as UserRow | undefined;
  const web = `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/snippets/${row.id}`;
  const raw = `${sandbox.config.externalUrl}/api/v4/projects/${project.id}/snippets/${row.id}/raw`;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    visibility: row.visibility,
    author: author ? userBasic(sandbox, author) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    project_id: row.project_id,
    web_url: web,
    raw_url: raw,
    file_name: row.file_name,
    files: [{ path: row.file_name, raw_url: `${web}/raw/main/${encodeURIComponent(row.file_name)}` }],
    imported: false,
    imported_from: 'none',
  };
}

/** The file of a new snippet: `file_name` and `content`, or the first of `files[]`. */
function fileOf(call: Call): { name: string; content: string } {
  const files = call.params.raw.files;
  if (Array.isArray(files) && files.length) {
    const first = files[0] as Record<string, unknown>;
    if (typeof first?.file_path !== 'string' || typeof first?.content !== 'string') throw paramError('files[file_path], files[content] are missing');
    return { name: first.file_path, content: first.content };
  }
  const content = call.params.string('content');
  if (content === undefined) throw paramError('content, files are missing, exactly one parameter must be provided');
  return { name: call.params.string('file_name') ?? 'snippetfile1.txt', content };
}

export function registerSnippets(routes: Router): void {
  routes.get('/projects/:id/snippets', { auth: 'public' }, (c, call) => {
    const project = snippetProject(c, call);
    const member = projectRole(call.sandbox.db, call.actor, project, call.now) >= AccessLevel.GUEST;
    const rows = (call.sandbox.db.prepare('SELECT * FROM snippets WHERE project_id = ? ORDER BY id DESC').all(project.id) as SnippetRow[])
      .filter((row) => row.visibility !== 'private' || member || row.author_id === call.actor.user?.id);
    return c.json(pageOfArray(c, call.params, rows).map((row) => snippetEntity(call.sandbox, project, row)));
  });

  routes.get('/projects/:id/snippets/:snippet_id', { auth: 'public' }, (c, call) => {
    const project = snippetProject(c, call);
    return c.json(snippetEntity(call.sandbox, project, snippetOf(c, call, project)));
  });

  routes.get('/projects/:id/snippets/:snippet_id/raw', { auth: 'public' }, (c, call) => {
    const project = snippetProject(c, call);
    return c.text(snippetOf(c, call, project).content);
  });

  routes.post('/projects/:id/snippets', {}, (c, call) => {
    let title = '';
    collectParamErrors([
      () => { title = call.params.requiredString('title'); },
      () => call.params.string('description'),
      () => call.params.oneOf('visibility', VISIBILITIES),
    ]);
    const project = snippetProject(c, call);
    // create_snippet: Reporter and up
    if (project.archived || projectRole(call.sandbox.db, call.actor, project, call.now) < AccessLevel.REPORTER) throw forbidden();
    const file = fileOf(call);
    if (!file.name.trim()) throw validationError({ file_name: ["can't be blank"] });
    const stamp = timestamp(call.now);
    const id = Number(call.sandbox.db.prepare(
      'INSERT INTO snippets (project_id, author_id, title, description, file_name, content, visibility, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(project.id, call.actor.user!.id, title, call.params.string('description') ?? null, file.name, file.content, call.params.string('visibility') ?? 'private', stamp, stamp).lastInsertRowid);
    const row = call.sandbox.db.prepare('SELECT * FROM snippets WHERE id = ?').get(id) as SnippetRow;
    return c.json(snippetEntity(call.sandbox, project, row), 201);
  });

  routes.delete('/projects/:id/snippets/:snippet_id', {}, (c, call) => {
    const project = snippetProject(c, call);
    const row = snippetOf(c, call, project);
    // admin_snippet: the author or a Maintainer
    if (row.author_id !== call.actor.user!.id && projectRole(call.sandbox.db, call.actor, project, call.now) < AccessLevel.MAINTAINER) throw forbidden();
    call.sandbox.db.prepare("DELETE FROM notes WHERE noteable_type = 'Snippet' AND noteable_id = ?").run(row.id);
    call.sandbox.db.prepare('DELETE FROM snippets WHERE id = ?').run(row.id);
    return c.body(null, 204);
  });
}
