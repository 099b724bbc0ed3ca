import { expect } from 'vitest';
import type { Harness } from './harness.ts';

/** A project whose repository holds `files` on main (one commit through the commits API). */
export async function projectWithFiles(h: Harness, name: string, files: Record<string, string>, options: { visibility?: string; token?: string; message?: string } = {}) {
  const created = await h.post('/projects', { name, visibility: options.visibility ?? 'private' }, options.token ? { token: options.token } : undefined);
  expect(created.status, created.text).toBe(201);
  const project = created.body as { id: number; path_with_namespace: string };
  await commitFiles(h, project.id, files, options.message ?? 'Initial commit');
  return project;
}

/** Writes files on a branch (created from main when missing); every push may start a pipeline. */
export async function commitFiles(h: Harness, projectId: number, files: Record<string, string>, message = 'Change files', branch = 'main') {
  const tree = await h.get(`/projects/${projectId}/repository/tree?ref=${encodeURIComponent(branch)}&recursive=true&per_page=100`);
  const existing = new Set(tree.status === 200 ? (tree.body as Array<{ path: string }>).map((entry) => entry.path) : []);
  const branches = await h.get(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`);
  const answer = await h.post(`/projects/${projectId}/repository/commits`, {
    branch,
    ...(branches.status === 404 && branch !== 'main' ? { start_branch: 'main' } : {}),
    commit_message: message,
    actions: Object.entries(files).map(([file_path, content]) => ({ action: existing.has(file_path) ? 'update' : 'create', file_path, content })),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string };
}

/** An online instance runner (as if it had just polled for work), optionally tagged. */
export async function onlineRunner(h: Harness, body: Record<string, unknown> = {}) {
  const answer = await h.post('/user/runners', { runner_type: 'instance_type', ...body });
  expect(answer.status, answer.text).toBe(201);
  h.sandbox.db.prepare('UPDATE ci_runners SET contacted_at = ? WHERE id = ?').run(new Date().toISOString(), answer.body.id);
  return answer.body as { id: number; token: string };
}

const COMPLETED = ['success', 'failed', 'canceled', 'skipped', 'manual'];

/** Waits until the pipeline's status satisfies `done` (default: finished or blocked), then answers it. */
export async function settle(h: Harness, projectId: number, pipelineId: number, done: (pipeline: any) => boolean = (p) => COMPLETED.includes(p.status), timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // polls: waiting for the worker to be idle would wait out jobs that sleep
    const answer = await h.get(`/projects/${projectId}/pipelines/${pipelineId}`);
    expect(answer.status, answer.text).toBe(200);
    if (done(answer.body)) return answer.body;
    if (Date.now() > deadline) throw new Error(`pipeline ${pipelineId} stayed ${answer.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function jobsOf(h: Harness, projectId: number, pipelineId: number, query = '') {
  const answer = await h.get(`/projects/${projectId}/pipelines/${pipelineId}/jobs?per_page=100${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Array<{ id: number; name: string; status: string; stage: string; [key: string]: any }>;
}

export const statusesOf = (jobs: Array<{ name: string; status: string }>) => Object.fromEntries(jobs.map((job) => [job.name, job.status]));
