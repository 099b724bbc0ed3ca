import { createHash } from 'node:crypto';
import type { Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { AccessLevel } from '../model/access.ts';
import { generator } from './random.ts';
import { timestampAt } from '../model/time.ts';

/**
 * The demo's container registry: images in several acme-engineering projects, and the API
 * gateway's image with 10,000 tags pushed over two years (`latest`, releases v1.0.0 and up with
 * their release candidates, a `main-<sha>` build for most merges, a few branch tags), with a tag
 * protection rule on the releases. Runs inside the demo seed's transaction with prepared statements.
 */

/** Paths and ids of the demo registry that tests and the bench address directly. */
export const DEMO_REGISTRY = {
  /** The project whose root image holds 10,000 tags. */
  bigProject: 'acme-engineering/backend/api-gateway',
  /** Its root image ('' name): repository id 1, the first one the seed creates. */
  bigRepositoryId: 1,
  bigRepositoryTags: 10_000,
  /** The tag protection rule on the big project: releases, deletable by Owners only (Maintainers are refused). */
  protectedPattern: '^v\\d+\\.\\d+\\.\\d+$',
  /** A small named image beside it. */
  namedRepository: { project: 'acme-engineering/backend/api-gateway', name: 'migrations' },
  /** A project with a root image and a named image of a few dozen tags each. */
  smallProject: 'acme-engineering/frontend/web-app',
} as const;

const DAY_MS = 86_400_000;
const TWO_YEARS_DAYS = 730;

interface SeedTag {
  name: string;
  /** Days before the anchor the manifest was created. */
  daysAgo: number;
  /** Tags of one build share a manifest. */
  build: string;
  size: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** 10,000 tags over two years: main builds every few hours, a release every ~5 days with candidates before it. */
function bigImageTags(): SeedTag[] {
  const random = generator(0x0c1_2026);
  // releases: v1.0.0 two years ago, minors and patches, v2.0.0 and v3.0.0 on the way; candidates come before a minor or major
  const named: Array<{ name: string; daysAgo: number }> = [];
  let major = 1;
  let minor = 0;
  let patch = 0;
  let releases = 0;
  for (let daysAgo = TWO_YEARS_DAYS - 2; daysAgo > 1; daysAgo -= 3 + random.int(0, 4)) {
    const version = `v${major}.${minor}.${patch}`;
    if (patch === 0) {
      const candidates = random.int(1, 3);
      for (let rc = 1; rc <= candidates; rc++) named.push({ name: `${version}-rc.${rc}`, daysAgo: daysAgo + (candidates - rc + 1) * 0.7 });
    }
    named.push({ name: version, daysAgo });
    releases++;
    if (releases === 60 || releases === 120) {
      major++;
      minor = 0;
      patch = 0;
    } else if (random.chance(0.35)) {
      minor++;
      patch = 0;
    } else {
      patch++;
    }
  }
  // branch tags: the environments and a few long-lived branches, recent builds
  for (const branch of ['develop', 'staging', 'production', 'canary', 'feature-rate-limits', 'feature-oauth2-pkce', 'fix-cors-preflight', 'renovate-go-1.23', 'hotfix-tls-ciphers', 'perf-connection-pool']) {
    named.push({ name: branch, daysAgo: random.between(0.2, 60) });
  }
  // main builds fill the rest, spread over two years, oldest first; `latest` is the newest
  const buildCount = DEMO_REGISTRY.bigRepositoryTags - named.length - 1;
  const builds: SeedTag[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < buildCount; i++) {
    const daysAgo = TWO_YEARS_DAYS * (1 - i / buildCount) + 0.01 + random.next() * 0.02;
    let sha = sha256(`api-gateway:${i}`).slice(0, 8);
    if (seen.has(sha)) sha = sha256(`api-gateway:${i}`).slice(0, 9);
    seen.add(sha);
    builds.push({ name: `main-${sha}`, daysAgo, build: `main-${sha}`, size: 48_000_000 + Math.floor(i * 2_000 + random.next() * 6_000_000) });
  }
  const buildNear = (daysAgo: number) => builds[Math.min(buildCount - 1, Math.max(0, Math.round(buildCount * (1 - daysAgo / TWO_YEARS_DAYS))))];
  const tags: SeedTag[] = [...builds];
  for (const tag of named) {
    const build = buildNear(tag.daysAgo);
    tags.push({ name: tag.name, daysAgo: build.daysAgo, build: build.build, size: build.size });
  }
  const newest = builds[buildCount - 1];
  tags.push({ name: 'latest', daysAgo: newest.daysAgo, build: newest.build, size: newest.size });
  return tags;
}

function smallImageTags(seed: number, prefix: string, count: number, baseSize: number): SeedTag[] {
  const random = generator(seed);
  const tags: SeedTag[] = [];
  for (let i = 0; i < count; i++) {
    const daysAgo = 300 * (1 - i / count) + random.next();
    const sha = sha256(`${prefix}:${i}`).slice(0, 8);
    tags.push({ name: i % 6 === 5 ? `v1.${Math.floor(i / 6)}.0` : `main-${sha}`, daysAgo, build: `${prefix}-${sha}`, size: baseSize + random.int(0, 8_000_000) });
  }
  const newest = tags[tags.length - 1];
  tags.push({ name: 'latest', daysAgo: newest.daysAgo, build: newest.build, size: newest.size });
  return tags;
}

export function seedDemoRegistry(sandbox: Sandbox, anchor: Date): void {
  const { db } = sandbox;
  const project = (path: string) => {
    const row = db.prepare('SELECT * FROM projects WHERE path_with_namespace = ?').get(path) as ProjectRow | undefined;
    if (!row) throw new Error(`demo registry seed: no project ${path}`);
    return row;
  };
  const stamp = (daysAgo: number) => timestampAt(anchor.getTime() - daysAgo * DAY_MS);
  const insertRepository = db.prepare('INSERT INTO container_repositories (project_id, name, created_at, cleanup_policy_started_at) VALUES (?, ?, ?, ?)');
  const insertTag = db.prepare('INSERT INTO container_tags (repository_id, name, digest, revision, total_size, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const image = (owner: ProjectRow, name: string, tags: SeedTag[], policyStartedDaysAgo: number | null) => {
    const oldest = tags.reduce((max, tag) => Math.max(max, tag.daysAgo), 0);
    const id = Number(insertRepository.run(owner.id, name, stamp(oldest + 0.01), policyStartedDaysAgo === null ? null : stamp(policyStartedDaysAgo)).lastInsertRowid);
    const manifests = new Map<string, { digest: string; revision: string }>();
    for (const tag of tags) {
      let manifest = manifests.get(tag.build);
      if (!manifest) {
        const digest = sha256(`${owner.path_with_namespace}/${name}@${tag.build}`);
        manifest = { digest: `sha256:${digest}`, revision: sha256(digest) };
        manifests.set(tag.build, manifest);
      }
      insertTag.run(id, tag.name, manifest.digest, manifest.revision, tag.size, stamp(tag.daysAgo));
    }
    return id;
  };

  const gateway = project(DEMO_REGISTRY.bigProject);
  const bigId = image(gateway, '', bigImageTags(), 3.2);
  if (bigId !== DEMO_REGISTRY.bigRepositoryId) throw new Error(`demo registry seed: the big image got id ${bigId}`);
  image(gateway, DEMO_REGISTRY.namedRepository.name, smallImageTags(0x0c1_0001, 'migrations', 24, 12_000_000), null);
  const webApp = project(DEMO_REGISTRY.smallProject);
  image(webApp, '', smallImageTags(0x0c1_0002, 'web-app', 40, 95_000_000), 1.5);
  image(webApp, 'storybook', smallImageTags(0x0c1_0003, 'storybook', 12, 60_000_000), null);
  image(project('acme-engineering/backend/payments/payments-service'), '', smallImageTags(0x0c1_0004, 'payments', 30, 210_000_000), null);

  // releases are deleted by Owners only: Maintainers (maya.chen) are refused
  db.prepare('INSERT INTO container_tag_protection_rules (project_id, tag_name_pattern, minimum_access_level_for_push, minimum_access_level_for_delete) VALUES (?, ?, ?, ?)')
    .run(gateway.id, DEMO_REGISTRY.protectedPattern, AccessLevel.MAINTAINER, AccessLevel.OWNER);
  // a cleanup policy written but not switched on: the console edits it with its preview
  db.prepare('INSERT INTO container_expiration_policies (project_id, cadence, enabled, keep_n, older_than, name_regex, name_regex_keep, next_run_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?)')
    .run(gateway.id, '7d', 25, '90d', 'main-.*', '^v\\d+\\.\\d+\\.\\d+$', stamp(-7));
}
