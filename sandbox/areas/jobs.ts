import { badRequest, forbidden } from '../http/errors.ts';
import type { Router } from '../http/route.ts';
import { AccessLevel } from '../model/access.ts';
import { findJob, jobEntity, pipelineById, readTrace, type JobRow } from '../model/pipelines.ts';
import { ciWorker } from '../ci/worker.ts';
import { canRunOnRef, ciProject, idParam, jobsPage, variablesParam } from './pipelines.ts';

/** Statuses a job can be canceled from (Ci::HasStatus::CANCELABLE_STATUSES). */
const CANCELABLE = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'];

export function registerJobs(routes: Router): void {
  const read = { auth: 'public' as const };

  routes.get('/projects/:id/jobs', read, (c, call) => {
    const { project } = ciProject(c, call);
    return jobsPage(c, call, { where: ['j.project_id = ?', 'j.pipeline_id IS NOT NULL'], args: [project.id], order: 'DESC' });
  });

  routes.get('/projects/:id/jobs/:job_id', read, (c, call) => {
    const { project } = ciProject(c, call);
    const job = findJob(call.sandbox.db, project.id, idParam(c, 'job_id'));
    return c.json(jobEntity(call.sandbox, job, call.now));
  });

  routes.get('/projects/:id/jobs/:job_id/trace', read, (c, call) => {
    const { project } = ciProject(c, call);
    const job = findJob(call.sandbox.db, project.id, idParam(c, 'job_id'));
    c.header('Content-Type', 'text/plain; charset=utf-8');
    return c.body(readTrace(call.sandbox.db, job.id));
  });

  /** The job and the caller's right to act on it (`update_build`: Developers on refs they may update). */
  const actionable = (c: Parameters<Parameters<Router['post']>[2]>[0], call: Parameters<Parameters<Router['post']>[2]>[1]): JobRow => {
    const { project, role } = ciProject(c, call);
    const job = findJob(call.sandbox.db, project.id, idParam(c, 'job_id'));
    if (!canRunOnRef(call, project, role, job)) throw forbidden();
    return job;
  };

  routes.post('/projects/:id/jobs/:job_id/cancel', {}, (c, call) => {
    const job = actionable(c, call);
    if (CANCELABLE.includes(job.status)) ciWorker(call.sandbox).cancelJob(job);
    return c.json(jobEntity(call.sandbox, findJob(call.sandbox.db, job.project_id, job.id), call.now), 201);
  });

  routes.post('/projects/:id/jobs/:job_id/retry', {}, (c, call) => {
    const job = actionable(c, call);
    // Ci::Build#retryable?: finished, not already retried, and a job the sandbox can run
    if (!['success', 'failed', 'canceled'].includes(job.status) || job.retried || !job.plan) throw forbidden('Job is not retryable');
    const clone = ciWorker(call.sandbox).retryJob(job, call.actor.user!);
    return c.json(jobEntity(call.sandbox, clone, call.now), 201);
  });

  routes.post('/projects/:id/jobs/:job_id/play', {}, (c, call) => {
    const { project, role } = ciProject(c, call);
    const job = findJob(call.sandbox.db, project.id, idParam(c, 'job_id'));
    const variables = variablesParam(call.params.raw.job_variables_attributes, 'job_variables_attributes', { types: false });
    if (role < AccessLevel.DEVELOPER) throw forbidden();
    if (!['manual', 'scheduled'].includes(job.status) || job.retried || !job.plan) throw badRequest('Unplayable Job');
    if (!canRunOnRef(call, project, role, job)) throw forbidden();
    const pipeline = pipelineById(call.sandbox.db, job.pipeline_id!);
    if (!pipeline) throw badRequest('Unplayable Job');
    ciWorker(call.sandbox).playJob(job, call.actor.user!, variables.map(({ key, value }) => ({ key, value })));
    return c.json(jobEntity(call.sandbox, findJob(call.sandbox.db, project.id, job.id), call.now));
  });
}
