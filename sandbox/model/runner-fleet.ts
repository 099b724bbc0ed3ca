import { createHash } from 'node:crypto';
import type { Sandbox } from '../context.ts';
import { ONLINE_CONTACT_TIMEOUT_MS, STALE_TIMEOUT_MS, type RunnerType } from './runners.ts';
import { generator } from '../seed/random.ts';
import { timestampAt } from './time.ts';

/** How many runners of each type the demo fleet has (2,600 in all). */
export const DEMO_FLEET = { instance_type: 260, group_type: 940, project_type: 1400 } as const satisfies Record<RunnerType, number>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// newest first; old runners (stale ones) lean towards the old releases
const VERSIONS: ReadonlyArray<readonly [string, number]> = [
  ['17.8.1', 22], ['17.8.0', 8], ['17.7.2', 12], ['17.7.0', 4], ['17.6.1', 9], ['17.5.3', 7], ['17.4.0', 5], ['17.1.2', 4],
  ['17.0.0', 3], ['16.11.4', 6], ['16.10.0', 3], ['16.5.0', 3], ['16.1.0', 2], ['15.11.1', 3], ['15.8.2', 2], ['15.1.0', 1], ['14.10.1', 1],
];
const OLD_VERSIONS: ReadonlyArray<readonly [string, number]> = VERSIONS.map(([version, weight]) => [version, version.startsWith('17.') ? weight / 6 : weight * 3] as const);
const PLATFORMS: ReadonlyArray<readonly [string, number]> = [['linux', 80], ['windows', 9], ['darwin', 8], ['freebsd', 3]];
const ARCHITECTURES: Record<string, ReadonlyArray<readonly [string, number]>> = {
  linux: [['amd64', 68], ['arm64', 26], ['s390x', 3], ['ppc64le', 3]],
  windows: [['amd64', 100]],
  darwin: [['arm64', 80], ['amd64', 20]],
  freebsd: [['amd64', 100]],
};
const PLATFORM_TAGS: Record<string, readonly string[]> = {
  linux: ['docker', 'linux', 'shell', 'kubernetes', 'privileged', 'gpu', 'large', 'small'],
  windows: ['windows', 'powershell', 'dotnet', 'docker-windows'],
  darwin: ['macos', 'ios', 'xcode', 'shell'],
  freebsd: ['freebsd', 'shell'],
};
const PURPOSE_TAGS = ['build', 'test', 'deploy', 'production', 'staging', 'nodejs', 'ruby', 'python', 'go', 'java', 'rust', 'android', 'e2e', 'lint'];
const EXECUTORS = ['docker', 'k8s', 'shell', 'docker-autoscaler', 'vm', 'instance'];
const NOTES = [
  'Scheduled for replacement with the autoscaling fleet next quarter.',
  'Host disk is almost full; jobs may fail with ENOSPC. Ticket OPS-1432.',
  'Owned by the platform team. Ping #ci-runners before changing tags.',
  'Keep paused until the kernel upgrade is done.',
  'Do not remove: the release pipeline of the mobile apps depends on this runner.',
];
const JOB_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['build', 'compile'], ['build', 'docker-build'], ['test', 'unit-tests'], ['test', 'integration-tests'], ['test', 'lint'],
  ['test', 'e2e'], ['deploy', 'deploy-staging'], ['deploy', 'deploy-production'], ['release', 'publish-package'],
];
const COMMIT_TITLES = [
  'Fix flaky checkout test', 'Bump dependencies', 'Add retry to the payment client', 'Refactor the session store',
  'Update the README', 'Speed up the image pipeline', 'Remove the legacy feature flag', 'Handle empty carts gracefully',
];

interface Place {
  id: number;
  parentId: number | null;
}

/**
 * The demo runner fleet: 2,600 runners of the three types, across every status (online, offline,
 * stale, never contacted), paused ones, 17 runner versions, four platforms and a spread of tags,
 * plus a few jobs on some of them. Times are relative to the sandbox clock when seeding, so a fresh
 * demo sandbox shows online runners. Runs inside the demo seed's transaction.
 */
export function seedRunners(sandbox: Sandbox): void {
  const { db } = sandbox;
  const now = sandbox.now().getTime();
  // a seed of its own, so the fleet never shifts the rest of the demo data
  const random = generator(0x7a11_2026);
  const at = timestampAt;

  const projects = db.prepare('SELECT id, namespace_id FROM projects ORDER BY id').all() as Array<{ id: number; namespace_id: number }>;
  const groups = db.prepare("SELECT id, parent_id FROM namespaces WHERE kind = 'group' ORDER BY id").all() as Place[];
  const people = db.prepare("SELECT id FROM users WHERE state = 'active' AND user_type = 'human' ORDER BY id").pluck().all() as number[];
  if (projects.length === 0 || groups.length === 0 || people.length === 0) return;
  const parentOf = new Map(groups.map((group) => [group.id, group.parentId]));
  const inGroupTree = (namespaceId: number, groupId: number) => {
    for (let id: number | null | undefined = namespaceId; id; id = parentOf.get(id)) if (id === groupId) return true;
    return false;
  };

  const insertRunner = db.prepare(
    `INSERT INTO ci_runners (runner_type, name, description, active, locked, run_untagged, access_level, maximum_timeout, maintenance_note,
       token_digest, registration_type, creator_id, version, revision, platform, architecture, system_id, contacted_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = db.prepare('INSERT INTO ci_runner_taggings (runner_id, name) VALUES (?, ?)');
  const insertProjectLink = db.prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)');
  const insertGroupLink = db.prepare('INSERT INTO ci_runner_namespaces (runner_id, namespace_id) VALUES (?, ?)');
  const revisions = new Map(VERSIONS.map(([version]) => [version, createHash('sha1').update(version).digest('hex').slice(0, 8)]));

  const busyCandidates: Array<{ id: number; type: RunnerType; projectIds: number[]; groupId: number | null }> = [];
  let sequence = 0;
  for (const runnerType of ['instance_type', 'group_type', 'project_type'] as const) {
    for (let n = 0; n < DEMO_FLEET[runnerType]; n++) {
      sequence++;
      const state = random.weighted([['online', 46], ['offline', 18], ['stale', 22], ['never_contacted', 7], ['stale_never', 7]] as const);
      let createdAt: number;
      let contactedAt: number | null;
      switch (state) {
        case 'online':
          createdAt = now - random.between(0.5 * DAY, 700 * DAY);
          contactedAt = now - random.between(0, ONLINE_CONTACT_TIMEOUT_MS - 5 * MINUTE);
          break;
        case 'offline':
          contactedAt = now - random.between(ONLINE_CONTACT_TIMEOUT_MS + 5 * MINUTE, STALE_TIMEOUT_MS - HOUR);
          createdAt = contactedAt - random.between(HOUR, 500 * DAY);
          break;
        case 'stale':
          contactedAt = now - random.between(STALE_TIMEOUT_MS + DAY, 520 * DAY);
          createdAt = contactedAt - random.between(DAY, 400 * DAY);
          break;
        case 'never_contacted':
          createdAt = now - random.between(10 * MINUTE, STALE_TIMEOUT_MS - HOUR);
          contactedAt = null;
          break;
        default:
          createdAt = now - random.between(STALE_TIMEOUT_MS + DAY, 400 * DAY);
          contactedAt = null;
      }
      const contacted = contactedAt !== null;
      const platform = contacted ? random.weighted(PLATFORMS) : null;
      const architecture = platform ? random.weighted(ARCHITECTURES[platform]) : null;
      const version = contacted ? random.weighted(state === 'stale' ? OLD_VERSIONS : VERSIONS) : null;
      const tags = new Set<string>();
      if (platform) tags.add(random.pick(PLATFORM_TAGS[platform]));
      for (let i = random.int(0, 3); i > 0; i--) tags.add(random.pick(i === 1 && platform ? PLATFORM_TAGS[platform] : PURPOSE_TAGS));
      const runUntagged = tags.size === 0 || random.next() < 0.65;
      const executor = random.pick(EXECUTORS);
      const label = runnerType === 'instance_type' ? 'shared' : runnerType === 'group_type' ? 'group' : 'project';
      const description = `${label}-${executor}-${platform ?? 'pending'}-${String(sequence).padStart(4, '0')}`;
      const registeredByToken = random.next() < 0.4;
      const creatorId = registeredByToken ? null : runnerType === 'instance_type' ? 1 : random.pick(people);
      const result = insertRunner.run(
        runnerType,
        contacted && random.next() < 0.7 ? `${executor}-${random.hex(6)}` : null,
        description,
        random.next() < 0.12 ? 0 : 1,
        runnerType === 'project_type' && random.next() < 0.3 ? 1 : 0,
        runUntagged ? 1 : 0,
        random.next() < 0.15 ? 'ref_protected' : 'not_protected',
        random.next() < 0.6 ? null : random.pick([3600, 5400, 7200, 10800]),
        random.next() < 0.05 ? random.pick(NOTES) : null,
        createHash('sha256').update(`demo-runner-${sequence}-${random.hex(24)}`).digest('hex'),
        registeredByToken ? 'registration_token' : 'authenticated_user',
        creatorId,
        version,
        version ? revisions.get(version)! : null,
        platform,
        architecture,
        contacted ? `s_${random.hex(12)}` : null,
        contactedAt === null ? null : at(contactedAt),
        at(createdAt),
        at(contactedAt ?? createdAt),
      );
      const id = Number(result.lastInsertRowid);
      for (const tag of tags) insertTag.run(id, tag);
      const projectIds: number[] = [];
      let groupId: number | null = null;
      if (runnerType === 'project_type') {
        projectIds.push(random.pick(projects).id);
        // a few runners serve two projects: only an administrator may delete those
        if (random.next() < 0.05) {
          const second = random.pick(projects).id;
          if (second !== projectIds[0]) projectIds.push(second);
        }
        for (const projectId of projectIds) insertProjectLink.run(id, projectId, at(createdAt));
      } else if (runnerType === 'group_type') {
        groupId = random.pick(groups).id;
        insertGroupLink.run(id, groupId);
      }
      if (state === 'online' && busyCandidates.length < 24 && random.next() < 0.05) {
        busyCandidates.push({ id, type: runnerType, projectIds, groupId });
      }
    }
  }
  seedJobs(sandbox, random, busyCandidates, projects, inGroupTree, people, now);
}

function seedJobs(
  sandbox: Sandbox,
  random: ReturnType<typeof generator>,
  runners: Array<{ id: number; type: RunnerType; projectIds: number[]; groupId: number | null }>,
  projects: Array<{ id: number; namespace_id: number }>,
  inGroupTree: (namespaceId: number, groupId: number) => boolean,
  people: number[],
  now: number,
): void {
  const { db } = sandbox;
  const insertJob = db.prepare(
    `INSERT INTO ci_builds (project_id, runner_id, system_id, pipeline_id, pipeline_iid, user_id, name, stage, status, ref, tag, sha,
       commit_title, coverage, allow_failure, failure_reason, created_at, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const systemIdOf = db.prepare('SELECT system_id FROM ci_runners WHERE id = ?').pluck();
  let pipeline = 1000;
  for (const runner of runners) {
    const usable = runner.type === 'project_type'
      ? runner.projectIds
      : runner.type === 'group_type'
        ? projects.filter((project) => inGroupTree(project.namespace_id, runner.groupId!)).map((project) => project.id)
        : projects.map((project) => project.id);
    if (usable.length === 0) continue;
    const systemId = systemIdOf.get(runner.id) as string | null;
    for (let n = random.int(2, 6); n > 0; n--) {
      pipeline++;
      const [stage, name] = random.pick(JOB_NAMES);
      // the newest job of a busy runner is still running
      const status = n === 1 ? 'running' : random.weighted([['success', 70], ['failed', 18], ['canceled', 7], ['skipped', 5]] as const);
      const createdAt = now - (n === 1 ? random.between(2, 20) * MINUTE : random.between(1, 72) * HOUR);
      const startedAt = createdAt + random.between(3, 90) * 1000;
      const finishedAt = status === 'running' ? null : startedAt + random.between(20, 1500) * 1000;
      const tagRef = stage === 'release' && random.next() < 0.5;
      insertJob.run(
        random.pick(usable), runner.id, systemId, pipeline, pipeline - 900, random.pick(people), name, stage, status,
        tagRef ? `v${random.int(1, 4)}.${random.int(0, 12)}.${random.int(0, 9)}` : random.pick(['main', 'main', 'develop', 'feature/checkout-v2']),
        tagRef ? 1 : 0, random.hex(40), random.pick(COMMIT_TITLES),
        stage === 'test' && status === 'success' ? Math.round(random.between(55, 97) * 100) / 100 : null,
        name === 'lint' ? 1 : 0, status === 'failed' ? random.pick(['script_failure', 'runner_system_failure', 'job_execution_timeout']) : null,
        timestampAt(createdAt), timestampAt(startedAt), finishedAt === null ? null : timestampAt(finishedAt),
      );
    }
  }
}
