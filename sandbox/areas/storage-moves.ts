import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import type { AppEnv, Sandbox } from '../context.ts';
import type { Db } from '../db.ts';
import { notFound, paramError, validationError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { findReadableGroup, findReadableProject, type NamespaceRow, type ProjectRow } from '../model/access.ts';
import { projectIdentity } from '../model/entities.ts';
import { git } from '../git/exec.ts';
import { existingRepository, repositoryPath } from '../git/repository.ts';
import { buildPendingRepository } from '../seed/repositories.ts';

/**
 * The sandbox's named repository storages (the platform's `gitlab.yml` `repositories.storages`).
 * Each is a directory `<dataDir>/repositories/<name>`.
 */
export const REPOSITORY_STORAGES: readonly string[] = ['default', 'storage-2', 'storage-3'];

type ContainerType = 'Project' | 'Group';
export type MoveState = 'initial' | 'scheduled' | 'started' | 'replicated' | 'finished' | 'failed' | 'cleanup_failed';

export interface StorageMoveRow {
  id: number;
  container_type: ContainerType;
  container_id: number;
  state: MoveState;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Test seams of one sandbox's move worker: `beforeCopy` runs once the move has started and
 * before anything is copied (tests hold the move there to see the read-only window);
 * `failCopy` makes the copy fail as an unwritable destination would.
 */
export interface StorageMoveControl {
  beforeCopy?: (move: StorageMoveRow) => Promise<void>;
  failCopy?: (move: StorageMoveRow) => boolean;
}

class MoveWorker {
  control: StorageMoveControl = {};
  private inFlight = new Set<Promise<void>>();

  run(task: () => Promise<void>): void {
    // after the scheduling transaction has committed
    const job = new Promise<void>((resolve) => setImmediate(resolve)).then(task).catch(() => undefined);
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  /** Resolves once every move scheduled so far has ended. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}

const workers = new WeakMap<Sandbox, MoveWorker>();

export function storageMoveWorker(sandbox: Sandbox): MoveWorker {
  let worker = workers.get(sandbox);
  if (!worker) {
    worker = new MoveWorker();
    workers.set(sandbox, worker);
  }
  return worker;
}

// -- entities

/** The platform's human state name (`cleanup_failed` reads `cleanup failed`). */
const humanState = (state: MoveState) => state.replace('_', ' ');

function basicMoveEntity(move: StorageMoveRow) {
  return {
    id: move.id,
    created_at: move.created_at,
    state: humanState(move.state),
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
  };
}

function moveEntity(sandbox: Sandbox, move: StorageMoveRow) {
  const { db, config } = sandbox;
  if (move.container_type === 'Project') {
    const project = db.prepare('SELECT * FROM projects WHERE id = ?').get(move.container_id) as ProjectRow;
    return { ...basicMoveEntity(move), project: projectIdentity(sandbox, project) };
  }
  const group = db.prepare('SELECT * FROM namespaces WHERE id = ?').get(move.container_id) as NamespaceRow;
  return { ...basicMoveEntity(move), group: { id: group.id, web_url: `${config.externalUrl}/groups/${group.full_path}`, name: group.name } };
}

// -- containers

interface Container {
  type: ContainerType;
  id: number;
  storage: string;
  readOnly: boolean;
}

function projectContainer(project: ProjectRow & { repository_read_only?: number }): Container {
  return { type: 'Project', id: project.id, storage: project.repository_storage, readOnly: Boolean(project.repository_read_only) };
}

function groupContainer(db: Db, groupId: number): Container {
  const row = db.prepare('SELECT repository_storage, read_only FROM group_wiki_repositories WHERE group_id = ?').get(groupId) as { repository_storage: string; read_only: number } | undefined;
  return { type: 'Group', id: groupId, storage: row?.repository_storage ?? 'default', readOnly: Boolean(row?.read_only) };
}

function setReadOnly(db: Db, container: Pick<Container, 'type' | 'id'>, readOnly: boolean): void {
  if (container.type === 'Project') {
    db.prepare('UPDATE projects SET repository_read_only = ? WHERE id = ?').run(readOnly ? 1 : 0, container.id);
  } else {
    db.prepare(
      `INSERT INTO group_wiki_repositories (group_id, read_only) VALUES (?, ?)
       ON CONFLICT (group_id) DO UPDATE SET read_only = excluded.read_only`,
    ).run(container.id, readOnly ? 1 : 0);
  }
}

function setStorage(db: Db, container: Pick<Container, 'type' | 'id'>, storage: string, stamp: string): void {
  if (container.type === 'Project') {
    db.prepare('UPDATE projects SET repository_storage = ?, updated_at = ? WHERE id = ?').run(storage, stamp, container.id);
  } else {
    db.prepare(
      `INSERT INTO group_wiki_repositories (group_id, repository_storage) VALUES (?, ?)
       ON CONFLICT (group_id) DO UPDATE SET repository_storage = excluded.repository_storage`,
    ).run(container.id, storage);
  }
}

/** `Repository.pick_storage_shard`: the sandbox weighs every storage but the source equally and takes the first. */
function pickStorage(source: string): string {
  return REPOSITORY_STORAGES.find((name) => name !== source) ?? 'default';
}

/**
 * Creates and schedules one move (RepositoryStorageMovable): the model's validations answer 400
 * with the field errors; scheduling marks the repository read-only and queues the worker.
 */
function scheduleMove(call: Call, container: Container, destination: string | undefined): StorageMoveRow {
  const { db } = call.sandbox;
  const target = destination ?? pickStorage(container.storage);
  const errorKey = container.type === 'Project' ? 'project' : 'group';
  const errors: Record<string, string[]> = {};
  if (!REPOSITORY_STORAGES.includes(container.storage)) errors.source_storage_name = ['is not included in the list'];
  if (!REPOSITORY_STORAGES.includes(target)) errors.destination_storage_name = ['is not included in the list'];
  if (container.readOnly) errors[errorKey] = ['is read-only'];
  if (Object.keys(errors).length) throw validationError(errors);
  const stamp = call.now.toISOString();
  const id = Number(
    db.prepare(
      `INSERT INTO repository_storage_moves (container_type, container_id, state, source_storage_name, destination_storage_name, created_at, updated_at)
       VALUES (?, ?, 'scheduled', ?, ?, ?, ?)`,
    ).run(container.type, container.id, container.storage, target, stamp, stamp).lastInsertRowid,
  );
  setReadOnly(db, container, true);
  const move = findMove(db, container.type, id)!;
  const sandbox = call.sandbox;
  storageMoveWorker(sandbox).run(() => performMove(sandbox, move));
  return move;
}

function updateState(sandbox: Sandbox, id: number, state: MoveState, error: string | null = null): void {
  sandbox.db.prepare('UPDATE repository_storage_moves SET state = ?, error_message = coalesce(?, error_message), updated_at = ? WHERE id = ?')
    .run(state, error, sandbox.now().toISOString(), id);
}

/** The bare repository directory of a container on a storage, or null when it has none yet. */
function sourceRepository(sandbox: Sandbox, move: StorageMoveRow): string | null {
  if (move.container_type === 'Group') return null;
  const project = sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(move.container_id) as ProjectRow | undefined;
  if (!project) return null;
  // a seeded repository not built yet is built on its source first, so the move carries it
  buildPendingRepository(sandbox, project);
  return existingRepository(sandbox, project);
}

/**
 * The worker (Projects::UpdateRepositoryStorageService): started, copy the bare repository to the
 * destination storage and check it there, switch the container's storage, remove the source.
 * Any failure before the switch ends `failed` with the repository writable on its source.
 */
async function performMove(sandbox: Sandbox, scheduled: StorageMoveRow): Promise<void> {
  const worker = storageMoveWorker(sandbox);
  const container = { type: scheduled.container_type, id: scheduled.container_id };
  let copied: string | null = null;
  try {
    updateState(sandbox, scheduled.id, 'started');
    const move = findMove(sandbox.db, scheduled.container_type, scheduled.id)!;
    await worker.control.beforeCopy?.(move);
    if (move.source_storage_name === move.destination_storage_name) throw new Error('SameFilesystemError');
    const source = sourceRepository(sandbox, move);
    if (source) {
      if (worker.control.failCopy?.(move)) throw new Error(`Failed to create the repository on ${move.destination_storage_name}`);
      const destination = repositoryPath(sandbox, { id: move.container_id, repository_storage: move.destination_storage_name });
      await fs.rm(destination, { recursive: true, force: true });
      await fs.mkdir(path.dirname(destination), { recursive: true });
      copied = destination;
      await fs.cp(source, destination, { recursive: true, errorOnExist: true, force: false });
      await verifyCopy(source, destination);
    }
    sandbox.db.transaction(() => {
      setStorage(sandbox.db, container, move.destination_storage_name, sandbox.now().toISOString());
      setReadOnly(sandbox.db, container, false);
      updateState(sandbox, move.id, 'replicated');
    })();
    copied = null;
    try {
      if (source) await fs.rm(source, { recursive: true, force: true });
      updateState(sandbox, move.id, 'finished');
    } catch (error) {
      updateState(sandbox, move.id, 'cleanup_failed', messageOf(error));
    }
  } catch (error) {
    if (copied) await fs.rm(copied, { recursive: true, force: true }).catch(() => undefined);
    try {
      sandbox.db.transaction(() => {
        setReadOnly(sandbox.db, container, false);
        updateState(sandbox, scheduled.id, 'failed', messageOf(error));
      })();
    } catch {
      // a closed store (the sandbox shutting down) keeps the move as it was
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The copy holds the same objects and refs: `git fsck` passes and every ref resolves to the same commit. */
async function verifyCopy(source: string, destination: string): Promise<void> {
  await git(destination, ['fsck', '--no-progress', '--no-dangling']);
  const refs = async (repo: string) => (await git(repo, ['for-each-ref', '--format=%(objectname) %(refname)'])).stdout.toString('utf8');
  const [before, after] = await Promise.all([refs(source), refs(destination)]);
  if (before !== after) throw new Error('Failed to verify project repository checksum');
}

// -- queries

function findMove(db: Db, type: ContainerType, id: number, containerId?: number): StorageMoveRow | undefined {
  const row = db.prepare('SELECT * FROM repository_storage_moves WHERE id = ? AND container_type = ?').get(id, type) as StorageMoveRow | undefined;
  return row && (containerId === undefined || row.container_id === containerId) ? row : undefined;
}

// moves of containers that no longer exist are not listed (the platform's `with_projects` join)
const LIVE: Record<ContainerType, string> = {
  Project: 'EXISTS (SELECT 1 FROM projects p WHERE p.id = m.container_id)',
  Group: "EXISTS (SELECT 1 FROM namespaces n WHERE n.id = m.container_id AND n.kind = 'group')",
};

function listMoves(c: Context<AppEnv>, call: Call, type: ContainerType, containerId?: number) {
  const { db } = call.sandbox;
  collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
  const where = `m.container_type = ? AND ${LIVE[type]}${containerId === undefined ? '' : ' AND m.container_id = ?'}`;
  const args: unknown[] = containerId === undefined ? [type] : [type, containerId];
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM repository_storage_moves m WHERE ${where} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT m.* FROM repository_storage_moves m WHERE ${where} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`)
      .all(...args, limit, offset) as StorageMoveRow[],
  });
  return c.json(rows.map((row) => moveEntity(call.sandbox, row)));
}

/** `:repository_storage_move_id`: Grape's Integer coercion answers 400 for anything else. */
function moveIdParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'repository_storage_move_id');
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError('repository_storage_move_id is invalid');
  return Number(raw);
}

function getMove(c: Context<AppEnv>, call: Call, type: ContainerType, containerId?: number) {
  const id = moveIdParam(c);
  const move = findMove(call.sandbox.db, type, id, containerId);
  // ActiveRecord's RecordNotFound: the platform's lower-case "found"
  if (!move) throw notFound();
  return c.json(moveEntity(call.sandbox, move));
}

/** `destination_storage_name` of a single move: a plain optional String (the model validates it). */
function destinationParam(call: Call): string | undefined {
  let destination: string | undefined;
  collectParamErrors([() => (destination = call.params.string('destination_storage_name'))]);
  return destination === '' ? undefined : destination;
}

/** The bulk endpoints' params: both restricted by Grape's `values:` to the configured storages. */
function bulkParams(call: Call): { source: string; destination?: string } {
  let source = '';
  let destination: string | undefined;
  collectParamErrors([
    () => {
      const value = call.params.string('source_storage_name');
      if (value === undefined) throw paramError('source_storage_name is missing');
      if (!REPOSITORY_STORAGES.includes(value)) throw paramError('source_storage_name does not have a valid value');
      source = value;
    },
    () => {
      const value = call.params.string('destination_storage_name');
      if (value !== undefined && !REPOSITORY_STORAGES.includes(value)) throw paramError('destination_storage_name does not have a valid value');
      destination = value;
    },
  ]);
  return { source, destination };
}

const accepted = (c: Context<AppEnv>) => c.json({ message: '202 Accepted' }, 202);

/** `Snippet.find_by(id:)`: the sandbox has no snippets, so every snippet id is unknown. */
const snippetNotFound = () => notFound('Snippet');

export function registerStorageMoves(routes: Router): void {
  const admin = { auth: 'admin' as const };

  // -- projects
  routes.get('/project_repository_storage_moves', admin, (c, call) => listMoves(c, call, 'Project'));
  routes.get('/project_repository_storage_moves/:repository_storage_move_id', admin, (c, call) => getMove(c, call, 'Project'));
  routes.post('/project_repository_storage_moves', admin, (c, call) => {
    const { source, destination } = bulkParams(call);
    // ScheduleBulkRepositoryShardMovesService: every project on the source that is not already moving
    const projects = call.sandbox.db.prepare('SELECT * FROM projects WHERE repository_storage = ? AND repository_read_only = 0 ORDER BY id').all(source) as ProjectRow[];
    for (const project of projects) scheduleMove(call, projectContainer(project), destination);
    return accepted(c);
  });
  routes.get('/projects/:id/repository_storage_moves', admin, (c, call) => {
    const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    return listMoves(c, call, 'Project', project.id);
  });
  routes.get('/projects/:id/repository_storage_moves/:repository_storage_move_id', admin, (c, call) => {
    const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    return getMove(c, call, 'Project', project.id);
  });
  routes.post('/projects/:id/repository_storage_moves', admin, (c, call) => {
    const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    const move = scheduleMove(call, projectContainer(project), destinationParam(call));
    return c.json(moveEntity(call.sandbox, move), 201);
  });

  // -- groups: the group's wiki repository (the sandbox has no wiki content, so a move switches its storage)
  routes.get('/group_repository_storage_moves', admin, (c, call) => listMoves(c, call, 'Group'));
  routes.get('/group_repository_storage_moves/:repository_storage_move_id', admin, (c, call) => getMove(c, call, 'Group'));
  routes.post('/group_repository_storage_moves', admin, (c, call) => {
    const { source, destination } = bulkParams(call);
    const { db } = call.sandbox;
    // groups without a wiki row live on `default`
    const groups = db.prepare(
      `SELECT n.id FROM namespaces n LEFT JOIN group_wiki_repositories w ON w.group_id = n.id
       WHERE n.kind = 'group' AND coalesce(w.repository_storage, 'default') = ? AND coalesce(w.read_only, 0) = 0 ORDER BY n.id`,
    ).all(source) as Array<{ id: number }>;
    for (const group of groups) scheduleMove(call, groupContainer(db, group.id), destination);
    return accepted(c);
  });
  routes.get('/groups/:id/repository_storage_moves', admin, (c, call) => {
    const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    return listMoves(c, call, 'Group', group.id);
  });
  routes.get('/groups/:id/repository_storage_moves/:repository_storage_move_id', admin, (c, call) => {
    const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    return getMove(c, call, 'Group', group.id);
  });
  routes.post('/groups/:id/repository_storage_moves', admin, (c, call) => {
    const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    const move = scheduleMove(call, groupContainer(call.sandbox.db, group.id), destinationParam(call));
    return c.json(moveEntity(call.sandbox, move), 201);
  });

  // -- snippets: none exist in the sandbox
  routes.get('/snippet_repository_storage_moves', admin, (c, call) => {
    collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
    return c.json(pageOfQuery(c, call.params, { count: () => 0, rows: () => [] }));
  });
  routes.get('/snippet_repository_storage_moves/:repository_storage_move_id', admin, (c) => {
    moveIdParam(c);
    throw notFound();
  });
  routes.post('/snippet_repository_storage_moves', admin, (c, call) => {
    bulkParams(call);
    return accepted(c);
  });
  routes.get('/snippets/:id/repository_storage_moves', admin, () => {
    throw snippetNotFound();
  });
  routes.get('/snippets/:id/repository_storage_moves/:repository_storage_move_id', admin, () => {
    throw snippetNotFound();
  });
  routes.post('/snippets/:id/repository_storage_moves', admin, () => {
    throw snippetNotFound();
  });
}

