import { randomBytes } from 'node:crypto';
import { expect, type Api } from './fixtures.ts';

export interface PipelineAnswer {
  id: number;
  iid: number;
  status: string;
}

export interface JobAnswer {
  id: number;
  name: string;
  status: string;
  stage: string;
}

const MOVING = /^(created|waiting_for_resource|preparing|pending|running|canceling)$/;

/** A new project (removed after the test) whose main branch holds `files`, the CI file among them. */
export async function newCiProject(api: Api, files: Record<string, string>): Promise<number> {
  const project = await api.post<{ id: number }>('/projects', { name: `e2e-ci-${randomBytes(4).toString('hex')}`, initialize_with_readme: true });
  api.deleteAfter(`/projects/${project.id}`);
  await api.post(`/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'CI for the test',
    actions: Object.entries(files).map(([path, content]) => ({ action: 'create', file_path: path, content })),
  });
  return project.id;
}

/** Runs a pipeline on main and waits until nothing in it moves; resolves with it and its jobs. */
export async function settledPipeline(api: Api, projectId: number): Promise<{ pipeline: PipelineAnswer; jobs: JobAnswer[] }> {
  const created = await api.post<PipelineAnswer>(`/projects/${projectId}/pipeline`, { ref: 'main' });
  const path = `/projects/${projectId}/pipelines/${created.id}`;
  await expect.poll(async () => (await api.get<PipelineAnswer>(path)).status, { timeout: 30_000 }).not.toMatch(MOVING);
  const jobs = await api.get<JobAnswer[]>(`${path}/jobs?per_page=100`);
  return { pipeline: await api.get<PipelineAnswer>(path), jobs };
}

/** The job named `name` of a pipeline's jobs; fails the test when there is none. */
export function jobNamed(jobs: readonly JobAnswer[], name: string): JobAnswer {
  const job = jobs.find((candidate) => candidate.name === name);
  expect(job, `a job named ${name}`).toBeDefined();
  return job!;
}
