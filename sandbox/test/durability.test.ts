import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migrations, openDb } from '../db.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Process {
  child: ChildProcess;
  apiUrl: string;
  adminToken: string;
}

/** Runs sandbox/main.ts under tsx in its own process (one process: a kill reaches the server itself). */
function startProcess(dataDir: string): Promise<Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', '--data', dataDir, '--seed', 'empty'], {
    cwd: repoRoot,
    // an exported but empty SANDBOX_ADMIN_TOKEN must not become the token
    env: { ...process.env, SANDBOX_ADMIN_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const api = /Sandbox API: (\S+)/.exec(output);
      const token = /Admin token: *(\S*) +\(user/.exec(output);
      if (api && token) {
        clearTimeout(timer);
        resolve({ child, apiUrl: api[1], adminToken: token[1] });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited (${code ?? signal}) before starting:\n${output}`));
    });
  });
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('durability of a real sandbox process', () => {
  it('keeps a user created just before kill -9, and the data directory\'s admin token', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-durable-'));
    const first = await startProcess(dataDir);
    expect(first.adminToken).toMatch(/^glpat-/);
    const tokenFile = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(tokenFile).toBe(first.adminToken);
    expect((fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toString(8)).toBe('600');

    const headers = { 'PRIVATE-TOKEN': first.adminToken, 'Content-Type': 'application/json' };
    const created = await fetch(`${first.apiUrl}/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'survivor@example.com', name: 'Survivor', username: 'survivor', password: 'long-enough' }),
    });
    expect(created.status).toBe(201);
    await killHard(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await startProcess(dataDir);
    try {
      // no --admin-token: the token kept in the data directory is the one in force
      expect(second.adminToken).toBe(tokenFile);
      const found = await fetch(`${second.apiUrl}/users?username=survivor`, { headers: { 'PRIVATE-TOKEN': tokenFile } });
      expect(found.status).toBe(200);
      const users = (await found.json()) as Array<{ username: string; email: string }>;
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ username: 'survivor', email: 'survivor@example.com' });
      const me = await fetch(`${second.apiUrl}/user`, { headers: { 'PRIVATE-TOKEN': tokenFile } });
      expect((await me.json()).username).toBe('root');
      // the empty seed ran once: still root and the survivor only
      const all = await fetch(`${second.apiUrl}/users`, { headers: { 'PRIVATE-TOKEN': tokenFile } });
      expect(all.headers.get('x-total')).toBe('2');
    } finally {
      await killHard(second.child);
    }
  }, 90_000);
});

describe('schema migrations', () => {
  it('brings a store written by the first migration up to the latest version, keeping its rows', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-migrate-'));
    const old = new Database(path.join(dir, 'sandbox.sqlite3'));
    migrate(old, 1);
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.prepare("INSERT INTO users (username, name, email, created_at, updated_at) VALUES ('old-timer', 'Old Timer', 'old@example.com', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z')").run();
    expect(old.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'users_name'").get()).toBeUndefined();
    old.close();

    const db = openDb(dir);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(migrations.length).toBeGreaterThan(1);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'users_name'").get()).toBeDefined();
      expect(db.prepare("SELECT username FROM users WHERE email = 'old@example.com'").get()).toEqual({ username: 'old-timer' });
    } finally {
      db.close();
    }
    // opening again is a no-op
    const again = openDb(dir);
    expect(again.pragma('user_version', { simple: true })).toBe(migrations.length);
    again.close();
  });

  it('refuses a store written by a newer build', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-newer-'));
    const newer = new Database(path.join(dir, 'sandbox.sqlite3'));
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();
    expect(() => openDb(dir)).toThrow(/newer than this build/);
  });
});
