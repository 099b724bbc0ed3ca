import type { Sandbox } from '../context.ts';
import { deleteProtection, findRepository, scheduleCleanup } from '../model/registry.ts';
import { nextRunAt, type ExpirationPolicyRow } from '../model/registry-policy.ts';
import { compileCleanupRules } from '../../src/lib/registry-cleanup.ts';

/**
 * The container registry's background work (DeleteContainerRepositoryWorker and
 * CleanupContainerRepositoryWorker): a scheduled repository delete goes delete_scheduled ->
 * delete_ongoing -> gone, a bulk tag delete removes its planned tags in batches. Both are kept
 * in the store, so a restarted sandbox resumes them (`resume`); a failure is recorded with its reason.
 */

/** Real milliseconds of each step at time scale 1: long enough for a console to show "deleting". */
const REPOSITORY_SCHEDULED_MS = 600;
const REPOSITORY_ONGOING_MS = 900;
const CLEANUP_BATCH = 250;
const CLEANUP_BATCH_MS = 60;
/** How often enabled cleanup policies are looked at (ContainerExpirationPolicyWorker's cron), in real time. */
const POLICY_POLL_MS = 30_000;

export interface CleanupJobRow {
  id: number;
  repository_id: number;
  state: 'scheduled' | 'running' | 'finished' | 'failed';
  /** JSON array of the tag names still to delete. */
  pending: string;
  deleted_count: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

class RegistryWorker {
  /** Multiplies every wait: 1 is the default pace, tests and the e2e set it small (0 runs at once). */
  timeScale = 1;
  private stopped = false;
  private timers = new Set<NodeJS.Timeout>();
  private inFlight = new Set<Promise<void>>();
  private repositories = new Set<number>();
  private jobs = new Set<number>();
  private poller: NodeJS.Timeout | null = null;

  constructor(private readonly sandbox: Sandbox) {}

  private alive(): boolean {
    return !this.stopped && this.sandbox.db.open;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms * this.timeScale);
      timer.unref();
      this.timers.add(timer);
    });
  }

  private run(task: () => Promise<void>): void {
    // after the scheduling transaction has committed
    const job = this.wait(0).then(task).catch((error) => {
      if (this.alive()) console.error('sandbox: registry work failed:', error);
    });
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  /** Resolves once everything scheduled so far has ended. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  private now(): string {
    return this.sandbox.now().toISOString();
  }

  /** Deletes a repository whose status is delete_scheduled (or delete_ongoing after a restart). */
  deleteRepository(id: number): void {
    if (this.repositories.has(id)) return;
    this.repositories.add(id);
    this.run(async () => {
      const { db } = this.sandbox;
      try {
        const scheduled = findRepository(db, id);
        if (!scheduled || (scheduled.status !== 'delete_scheduled' && scheduled.status !== 'delete_ongoing')) return;
        if (scheduled.status === 'delete_scheduled') {
          await this.wait(REPOSITORY_SCHEDULED_MS);
          if (!this.alive()) return;
          db.prepare("UPDATE container_repositories SET status = 'delete_ongoing' WHERE id = ? AND status = 'delete_scheduled'").run(id);
        }
        await this.wait(REPOSITORY_ONGOING_MS);
        if (!this.alive()) return;
        db.transaction(() => {
          db.prepare('DELETE FROM container_tags WHERE repository_id = ?').run(id);
          db.prepare('DELETE FROM container_repositories WHERE id = ?').run(id);
        })();
      } catch (error) {
        if (!this.alive()) return;
        db.prepare("UPDATE container_repositories SET status = 'delete_failed', status_reason = ? WHERE id = ?").run(messageOf(error), id);
      } finally {
        this.repositories.delete(id);
      }
    });
  }

  /** Removes a bulk delete's planned tags, a batch at a time, so a client sees them go. */
  cleanup(jobId: number): void {
    if (this.jobs.has(jobId)) return;
    this.jobs.add(jobId);
    this.run(async () => {
      const { db } = this.sandbox;
      const find = () => db.prepare('SELECT * FROM container_cleanup_jobs WHERE id = ?').get(jobId) as CleanupJobRow | undefined;
      const update = db.prepare('UPDATE container_cleanup_jobs SET state = ?, pending = ?, deleted_count = ?, error = ?, updated_at = ? WHERE id = ?');
      try {
        let job = find();
        if (!job || job.state === 'finished' || job.state === 'failed') return;
        update.run('running', job.pending, job.deleted_count, null, this.now(), jobId);
        const remove = db.prepare('DELETE FROM container_tags WHERE repository_id = ? AND name = ?');
        for (;;) {
          await this.wait(CLEANUP_BATCH_MS);
          if (!this.alive()) return;
          job = find();
          if (!job) return;
          const pending = JSON.parse(job.pending) as string[];
          const batch = pending.slice(0, CLEANUP_BATCH);
          const rest = pending.slice(CLEANUP_BATCH);
          const current = job;
          db.transaction(() => {
            let deleted = 0;
            for (const name of batch) deleted += remove.run(current.repository_id, name).changes;
            update.run(rest.length ? 'running' : 'finished', JSON.stringify(rest), current.deleted_count + deleted, null, this.now(), jobId);
          })();
          if (!rest.length) return;
        }
      } catch (error) {
        if (!this.alive()) return;
        const job = find();
        if (job) update.run('failed', job.pending, job.deleted_count, messageOf(error), this.now(), jobId);
      } finally {
        this.jobs.delete(jobId);
      }
    });
  }

  /**
   * Runs every enabled cleanup policy whose next_run_at has passed: each image of the project is
   * planned with the same rules module as a bulk delete, with every protected tag left alone (a
   * policy acts for no one), and next_run_at moves on by the cadence. A policy whose expressions
   * no longer compile is switched off, as the platform does. Returns the jobs it scheduled.
   */
  runDuePolicies(): number[] {
    const { db } = this.sandbox;
    const now = this.sandbox.now();
    const stamp = now.toISOString();
    const jobs: number[] = [];
    const due = db.prepare('SELECT * FROM container_expiration_policies WHERE enabled = 1 AND next_run_at <= ? ORDER BY project_id').all(stamp) as ExpirationPolicyRow[];
    db.transaction(() => {
      for (const policy of due) {
        const compiled = compileCleanupRules({ nameRegexDelete: policy.name_regex, nameRegexKeep: policy.name_regex_keep, keepN: policy.keep_n, olderThan: policy.older_than });
        if (!compiled.ok) {
          db.prepare('UPDATE container_expiration_policies SET enabled = 0 WHERE project_id = ?').run(policy.project_id);
          continue;
        }
        const isProtected = deleteProtection(db, policy.project_id, 0);
        const repositories = db.prepare('SELECT id FROM container_repositories WHERE project_id = ? AND status IS NULL ORDER BY id').pluck().all(policy.project_id) as number[];
        for (const id of repositories) {
          db.prepare('UPDATE container_repositories SET cleanup_policy_started_at = ? WHERE id = ?').run(stamp, id);
          jobs.push(scheduleCleanup(db, id, compiled.rules, isProtected, now).jobId);
        }
        db.prepare('UPDATE container_expiration_policies SET next_run_at = ? WHERE project_id = ?').run(nextRunAt(policy.cadence, now), policy.project_id);
      }
    })();
    for (const id of jobs) this.cleanup(id);
    return jobs;
  }

  /** On start: repository deletes and bulk deletes a stopped sandbox left in flight carry on; policies are looked at from then on. */
  resume(): void {
    const { db } = this.sandbox;
    const repositories = db.prepare("SELECT id FROM container_repositories WHERE status IN ('delete_scheduled', 'delete_ongoing')").pluck().all() as number[];
    for (const id of repositories) this.deleteRepository(id);
    const jobs = db.prepare("SELECT id FROM container_cleanup_jobs WHERE state IN ('scheduled', 'running') ORDER BY id").pluck().all() as number[];
    for (const id of jobs) this.cleanup(id);
    if (!this.poller) {
      this.poller = setInterval(() => {
        if (!this.alive()) return;
        try {
          this.runDuePolicies();
        } catch (error) {
          if (this.alive()) console.error('sandbox: registry cleanup policies failed:', error);
        }
      }, POLICY_POLL_MS);
      this.poller.unref();
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const workers = new WeakMap<Sandbox, RegistryWorker>();

export function registryWorker(sandbox: Sandbox): RegistryWorker {
  let worker = workers.get(sandbox);
  if (!worker) {
    worker = new RegistryWorker(sandbox);
    workers.set(sandbox, worker);
  }
  return worker;
}
