import { gzipSync } from 'node:zlib';
import type { Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { AccessLevel } from '../model/access.ts';
import { timestamp } from '../model/time.ts';
import { digestsOf, storeBlob, type Digests, type PackageStatus, type PackageType } from '../model/packages.ts';
import { generator } from './random.ts';

/**
 * The demo package registry: every package type with its real file names and metadata, several
 * versions, statuses other than default, pipelines of the gateway's real CI history, a protection
 * rule, and one project (the API gateway) holding 5,000 nightly builds for the bench.
 */
export const DEMO_PACKAGES = {
  /** 5,000 generic nightly builds, each built by one of the gateway's pipelines, plus its Go module and Helm chart. */
  benchProject: 'acme-engineering/backend/api-gateway',
  benchCount: 5000,
  /** Maven, NuGet and Composer packages; a rule protects `com/acme/payments/*` (maven): push Maintainer, delete Owner. */
  protectedProject: 'acme-engineering/backend/payments/payments-service',
  /** Maven payments-client 1.2.0: maya.chen (Maintainer) is refused its delete by the rule; hiroshi.tanaka (Owner) may. */
  protectedPackageId: 3,
  protectionPattern: 'com/acme/payments/*',
  /** NuGet Acme.Payments.Client 2.1.0 in the same project: no rule, Maintainers delete it. */
  unprotectedPackageId: 8,
  /** npm @acme/design-system: 1.0.0 deprecated, 1.1.0, 2.0.0-rc.1 (dist-tag next), 2.0.0 (latest); installable with npm. */
  npmProject: 'acme-engineering/frontend/design-system',
  npmPackageName: '@acme/design-system',
  npmLatestId: 14,
  deprecatedId: 11,
  /** Other statuses: error (ledger-core 3.3.0), hidden (iOS dSYMs), processing (@acme/icons), pending_destruction (payments-client 1.0.0). */
  errorId: 10,
  hiddenId: 17,
  processingId: 15,
  pendingDestructionId: 1,
  /** A versionless Maven package holding maven-metadata.xml (listed with include_versionless=true). */
  versionlessId: 5,
  /** Go module v1.1.0 of the gateway, built by its v1.1.0 tag pipeline. */
  withPipelinesId: 21,
  /** Public: conan lumen/1.2.0@lumen/stable, pypi lumen-py, a generic release; readable without a token. */
  publicProject: 'lumen/core/lumen',
  conanPackageId: 25,
} as const;

interface FileSpec {
  name: string;
  bytes: Uint8Array;
}

interface PackageSpec {
  /** Asserted against the row id, so DEMO_PACKAGES stays true. */
  id: number;
  project: string;
  name: string;
  version: string | null;
  type: PackageType;
  status?: PackageStatus;
  conanPackageName?: string;
  daysAgo: number;
  files: FileSpec[];
  metadata?: unknown;
  tags?: string[];
  /** Refs of the project's pipelines that built it (the newest pipeline of each). */
  pipelineRefs?: string[];
}

const text = (value: string) => new TextEncoder().encode(value);

/** Small deterministic bytes standing for a binary artifact: a header naming it, then filler. */
function artifact(name: string, size: number): Uint8Array {
  const random = generator([...name].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0, 7));
  const bytes = new Uint8Array(size);
  const header = text(`${name}\n`);
  bytes.set(header.subarray(0, size));
  for (let i = header.length; i < size; i++) bytes[i] = Math.floor(random.next() * 256);
  return bytes;
}

/** A ustar archive of `files`, gzipped: a real npm tarball (`package/...`), Helm chart or Terraform module. */
export function tarball(files: Record<string, string>): Uint8Array {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const body = Buffer.from(content, 'utf8');
    const header = Buffer.alloc(512);
    header.write(name, 0, 100, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(`${(0).toString(8).padStart(11, '0')}\0`, 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(gzipSync(Buffer.concat(blocks), { level: 1 }));
}

function pom(group: string, artifactId: string, version: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${group}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
</project>
`;
}

function mavenMetadata(group: string, artifactId: string, versions: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>${group}</groupId>
  <artifactId>${artifactId}</artifactId>
  <versioning>
    <latest>${versions[versions.length - 1]}</latest>
    <release>${versions[versions.length - 1]}</release>
    <versions>
${versions.map((version) => `      <version>${version}</version>`).join('\n')}
    </versions>
    <lastUpdated>20260101000000</lastUpdated>
  </versioning>
</metadata>
`;
}

function maven(id: number, project: string, group: string, artifactId: string, version: string, daysAgo: number, status?: PackageStatus): PackageSpec {
  return {
    id, project, type: 'maven', name: `${group.replace(/\./g, '/')}/${artifactId}`, version, daysAgo, status,
    metadata: { path: `${group.replace(/\./g, '/')}/${artifactId}/${version}`, app_group: group, app_name: artifactId, app_version: version },
    files: [
      { name: `${artifactId}-${version}.jar`, bytes: artifact(`${artifactId}-${version}.jar`, 2400 + id * 37) },
      { name: `${artifactId}-${version}.pom`, bytes: text(pom(group, artifactId, version)) },
      { name: `${artifactId}-${version}-sources.jar`, bytes: artifact(`${artifactId}-${version}-sources.jar`, 1300 + id * 11) },
    ],
  };
}

/** The npm package.json of a version, as the registry's metadata serves it. */
function npmManifest(name: string, version: string, description: string) {
  return { name, version, description, main: 'index.js', license: 'UNLICENSED' };
}

function npm(id: number, project: string, name: string, version: string, daysAgo: number, options: { status?: PackageStatus; tags?: string[]; description: string }): PackageSpec {
  const manifest = npmManifest(name, version, options.description);
  return {
    id, project, type: 'npm', name, version, daysAgo, status: options.status, tags: options.tags,
    metadata: { package_json: manifest },
    files: [{
      name: `${name}-${version}.tgz`,
      bytes: tarball({ 'package/package.json': `${JSON.stringify(manifest, null, 2)}\n`, 'package/index.js': `module.exports = { name: ${JSON.stringify(name)}, version: ${JSON.stringify(version)} };\n` }),
    }],
  };
}

function catalogue(): PackageSpec[] {
  const payments = DEMO_PACKAGES.protectedProject;
  const ledger = 'acme-engineering/backend/payments/ledger';
  const gateway = DEMO_PACKAGES.benchProject;
  const design = DEMO_PACKAGES.npmProject;
  const lumen = DEMO_PACKAGES.publicProject;
  const clientVersions = ['1.0.0', '1.1.0', '1.2.0', '1.3.0-SNAPSHOT'];
  const goModule = 'acme.example/backend/api-gateway';
  const goFiles = (version: string, daysAgo: number) => [
    { name: `${version}.mod`, bytes: text(`module ${goModule}\n\ngo 1.22\n\nrequire golang.org/x/net v0.25.0\n`) },
    { name: `${version}.zip`, bytes: artifact(`${goModule}@${version}.zip`, 5200 + daysAgo) },
    { name: `${version}.info`, bytes: text(`${JSON.stringify({ Version: version, Time: '2026-01-01T00:00:00Z' })}\n`) },
  ];
  const chart = (version: string) => tarball({ 'api-gateway/Chart.yaml': `apiVersion: v2\nname: api-gateway\nversion: ${version}\nappVersion: "${version}"\n`, 'api-gateway/values.yaml': 'replicaCount: 3\n' });
  const terraform = (name: string, version: string) => tarball({ 'main.tf': `# ${name} ${version}\nvariable "name" {}\n`, 'README.md': `# ${name}\n` });
  const conanFiles = [
    { name: 'conanfile.py', bytes: text('from conan import ConanFile\n\nclass LumenConan(ConanFile):\n    name = "lumen"\n    version = "1.2.0"\n') },
    { name: 'conanmanifest.txt', bytes: text('1767225600\nconanfile.py: 3f3b1a1f0c1d2e3f4a5b6c7d8e9f0a1b\n') },
    { name: 'conaninfo.txt', bytes: text('[settings]\n    arch=x86_64\n    build_type=Release\n    os=Linux\n') },
    { name: 'conan_package.tgz', bytes: tarball({ 'include/lumen.h': '#pragma once\n', 'lib/liblumen.a': 'archive' }) },
  ];
  return [
    // 1-6: payments-service (Maven, protected by the rule)
    maven(1, payments, 'com.acme.payments', 'payments-client', clientVersions[0], 300, 'pending_destruction'),
    maven(2, payments, 'com.acme.payments', 'payments-client', clientVersions[1], 220),
    maven(3, payments, 'com.acme.payments', 'payments-client', clientVersions[2], 120),
    maven(4, payments, 'com.acme.payments', 'payments-client', clientVersions[3], 6),
    {
      id: 5, project: payments, type: 'maven', name: 'com/acme/payments/payments-client', version: null, daysAgo: 6,
      metadata: { path: 'com/acme/payments/payments-client', app_group: 'com.acme.payments', app_name: 'payments-client', app_version: null },
      files: [{ name: 'maven-metadata.xml', bytes: text(mavenMetadata('com.acme.payments', 'payments-client', clientVersions)) }],
    },
    { id: 6, project: payments, type: 'composer', name: 'acme/payments-php-sdk', version: '1.5.0', daysAgo: 90, metadata: { composer_json: { name: 'acme/payments-php-sdk', type: 'library', require: { php: '>=8.1' } } }, files: [] },
    // 7-8: NuGet in the same project
    { id: 7, project: payments, type: 'nuget', name: 'Acme.Payments.Client', version: '2.0.0', daysAgo: 150, files: [{ name: 'acme.payments.client.2.0.0.nupkg', bytes: artifact('acme.payments.client.2.0.0.nupkg', 3100) }] },
    { id: 8, project: payments, type: 'nuget', name: 'Acme.Payments.Client', version: '2.1.0', daysAgo: 40, files: [{ name: 'acme.payments.client.2.1.0.nupkg', bytes: artifact('acme.payments.client.2.1.0.nupkg', 3300) }, { name: 'acme.payments.client.2.1.0.snupkg', bytes: artifact('acme.payments.client.2.1.0.snupkg', 900) }] },
    // 9-10: the ledger
    maven(9, ledger, 'com.acme.ledger', 'ledger-core', '3.2.0', 200),
    maven(10, ledger, 'com.acme.ledger', 'ledger-core', '3.3.0', 2, 'error'),
    // 11-15: npm in the design system
    npm(11, design, '@acme/design-system', '1.0.0', 400, { status: 'deprecated', description: 'Acme design system (deprecated: use 2.x)' }),
    npm(12, design, '@acme/design-system', '1.1.0', 250, { description: 'Acme design system' }),
    npm(13, design, '@acme/design-system', '2.0.0-rc.1', 30, { tags: ['next'], description: 'Acme design system' }),
    npm(14, design, '@acme/design-system', '2.0.0', 10, { tags: ['latest'], description: 'Acme design system' }),
    npm(15, design, '@acme/icons', '0.1.0', 0.2, { status: 'processing', description: 'Acme icon set' }),
    // 16-17: iOS builds (generic), the debug symbols hidden
    { id: 16, project: 'acme-engineering/mobile/ios-app', type: 'generic', name: 'ios-app', version: '4.2.0', daysAgo: 12, files: [{ name: 'AcmeApp-4.2.0.ipa', bytes: artifact('AcmeApp-4.2.0.ipa', 8000) }] },
    { id: 17, project: 'acme-engineering/mobile/ios-app', type: 'generic', name: 'ios-app-dsyms', version: '4.2.0', status: 'hidden', daysAgo: 12, files: [{ name: 'AcmeApp-4.2.0.dSYM.zip', bytes: artifact('AcmeApp-4.2.0.dSYM.zip', 6000) }] },
    // 18-19: PyPI in the handbook (directly in acme-engineering: what exclude_subgroups keeps)
    { id: 18, project: 'acme-engineering/handbook', type: 'pypi', name: 'acme-handbook-tools', version: '0.3.0', daysAgo: 60, metadata: { required_python: '>=3.10' }, files: [{ name: 'acme_handbook_tools-0.3.0-py3-none-any.whl', bytes: artifact('acme_handbook_tools-0.3.0-py3-none-any.whl', 2100) }, { name: 'acme_handbook_tools-0.3.0.tar.gz', bytes: artifact('acme_handbook_tools-0.3.0.tar.gz', 1800) }] },
    { id: 19, project: 'acme-engineering/handbook', type: 'pypi', name: 'acme-handbook-tools', version: '0.4.0', daysAgo: 3, metadata: { required_python: '>=3.10' }, files: [{ name: 'acme_handbook_tools-0.4.0-py3-none-any.whl', bytes: artifact('acme_handbook_tools-0.4.0-py3-none-any.whl', 2200) }, { name: 'acme_handbook_tools-0.4.0.tar.gz', bytes: artifact('acme_handbook_tools-0.4.0.tar.gz', 1900) }] },
    // 20-23: the gateway's Go module and Helm chart, built by its tag pipelines
    { id: 20, project: gateway, type: 'golang', name: goModule, version: 'v1.0.0', daysAgo: 200, files: goFiles('v1.0.0', 200), pipelineRefs: ['v1.0.0'] },
    { id: 21, project: gateway, type: 'golang', name: goModule, version: 'v1.1.0', daysAgo: 3, files: goFiles('v1.1.0', 3), pipelineRefs: ['v1.1.0', 'main'] },
    { id: 22, project: gateway, type: 'helm', name: 'api-gateway', version: '1.0.0', daysAgo: 200, files: [{ name: 'api-gateway-1.0.0.tgz', bytes: chart('1.0.0') }], pipelineRefs: ['v1.0.0'] },
    { id: 23, project: gateway, type: 'helm', name: 'api-gateway', version: '1.1.0', daysAgo: 3, files: [{ name: 'api-gateway-1.1.0.tgz', bytes: chart('1.1.0') }], pipelineRefs: ['v1.1.0'] },
    // 24-27: public Lumen: PyPI bindings, Conan, a generic release
    { id: 24, project: lumen, type: 'pypi', name: 'lumen-py', version: '1.2.0', daysAgo: 45, files: [{ name: 'lumen_py-1.2.0-cp312-cp312-manylinux_2_28_x86_64.whl', bytes: artifact('lumen_py-1.2.0-cp312-cp312-manylinux_2_28_x86_64.whl', 4000) }, { name: 'lumen_py-1.2.0.tar.gz', bytes: artifact('lumen_py-1.2.0.tar.gz', 2500) }] },
    { id: 25, project: lumen, type: 'conan', name: 'lumen/1.2.0@lumen/stable', conanPackageName: 'lumen', version: '1.2.0', daysAgo: 45, files: conanFiles },
    { id: 26, project: lumen, type: 'generic', name: 'lumen', version: '1.2.0', daysAgo: 45, files: [{ name: 'lumen-1.2.0-x86_64-unknown-linux-gnu.tar.gz', bytes: artifact('lumen-1.2.0-x86_64-unknown-linux-gnu.tar.gz', 7000) }, { name: 'SHA256SUMS', bytes: text('see package file sha256\n') }] },
    { id: 27, project: lumen, type: 'generic', name: 'lumen', version: '1.1.0', daysAgo: 160, files: [{ name: 'lumen-1.1.0-x86_64-unknown-linux-gnu.tar.gz', bytes: artifact('lumen-1.1.0-x86_64-unknown-linux-gnu.tar.gz', 6800) }] },
    // 28-30: Terraform modules of the platform team
    { id: 28, project: 'platform-team/infrastructure/terraform-modules', type: 'terraform_module', name: 'vpc/aws', version: '1.0.0', daysAgo: 300, files: [{ name: 'vpc-aws-1.0.0.tgz', bytes: terraform('vpc', '1.0.0') }] },
    { id: 29, project: 'platform-team/infrastructure/terraform-modules', type: 'terraform_module', name: 'vpc/aws', version: '1.1.0', daysAgo: 80, files: [{ name: 'vpc-aws-1.1.0.tgz', bytes: terraform('vpc', '1.1.0') }] },
    { id: 30, project: 'platform-team/infrastructure/terraform-modules', type: 'terraform_module', name: 'eks-cluster/aws', version: '2.0.0', daysAgo: 20, files: [{ name: 'eks-cluster-aws-2.0.0.tgz', bytes: terraform('eks-cluster', '2.0.0') }] },
  ];
}

const BENCH_PLATFORMS = ['linux-amd64', 'linux-arm64', 'darwin-arm64', 'windows-amd64'] as const;

export function seedPackages(sandbox: Sandbox, anchor: Date): void {
  const { db } = sandbox;
  const at = (daysAgo: number) => timestamp(new Date(anchor.getTime() - daysAgo * 86_400_000));
  const projectByPath = new Map<string, ProjectRow>();
  const projectOf = (fullPath: string) => {
    let project = projectByPath.get(fullPath);
    if (!project) {
      project = db.prepare('SELECT * FROM projects WHERE path_with_namespace = ?').get(fullPath) as ProjectRow | undefined;
      if (!project) throw new Error(`packages seed: no project ${fullPath}`);
      projectByPath.set(fullPath, project);
    }
    return project;
  };
  const insertPackage = db.prepare(
    `INSERT INTO packages (id, project_id, name, version, package_type, status, conan_package_name, metadata, creator_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFile = db.prepare(
    `INSERT INTO package_files (package_id, file_name, size, file_md5, file_sha1, file_sha256, pipeline_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertBuild = db.prepare('INSERT OR IGNORE INTO package_build_infos (package_id, pipeline_id) VALUES (?, ?)');
  const insertTag = db.prepare('INSERT INTO package_tags (package_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const newestPipeline = db.prepare("SELECT id FROM ci_pipelines WHERE project_id = ? AND ref = ? AND source != 'parent_pipeline' ORDER BY id DESC LIMIT 1").pluck();
  const stored = new Map<Uint8Array, Digests>();
  const store = (bytes: Uint8Array) => {
    let digests = stored.get(bytes);
    if (!digests) {
      digests = digestsOf(bytes);
      storeBlob(sandbox, bytes, digests.sha256);
      stored.set(bytes, digests);
    }
    return digests;
  };

  for (const spec of catalogue()) {
    const project = projectOf(spec.project);
    const createdAt = at(spec.daysAgo);
    insertPackage.run(spec.id, project.id, spec.name, spec.version, spec.type, spec.status ?? 'default', spec.conanPackageName ?? null,
      spec.metadata === undefined ? null : JSON.stringify(spec.metadata), project.creator_id, createdAt, createdAt);
    const pipelines = (spec.pipelineRefs ?? []).map((ref) => newestPipeline.get(project.id, ref) as number | undefined).filter((id): id is number => id !== undefined);
    for (const pipelineId of pipelines) insertBuild.run(spec.id, pipelineId);
    for (const file of spec.files) {
      const digests = store(file.bytes);
      insertFile.run(spec.id, file.name, digests.size, digests.md5, digests.sha1, digests.sha256, pipelines[0] ?? null, createdAt, createdAt);
    }
    for (const tag of spec.tags ?? []) insertTag.run(spec.id, tag, createdAt, createdAt);
  }

  // the protection rule: Maintainers may still push payments artifacts, only Owners delete them
  const payments = projectOf(DEMO_PACKAGES.protectedProject);
  db.prepare(
    `INSERT INTO package_protection_rules (project_id, package_name_pattern, package_type, minimum_access_level_for_push, minimum_access_level_for_delete, created_at, updated_at)
     VALUES (?, ?, 'maven', ?, ?, ?, ?)`,
  ).run(payments.id, DEMO_PACKAGES.protectionPattern, AccessLevel.MAINTAINER, AccessLevel.OWNER, at(100), at(100));

  // the bench: one nightly build per gateway pipeline (5,000), four platforms, a few build outputs shared by content
  const gateway = projectOf(DEMO_PACKAGES.benchProject);
  const pipelines = db.prepare("SELECT id, created_at, updated_at FROM ci_pipelines WHERE project_id = ? AND source != 'parent_pipeline' ORDER BY id LIMIT ?")
    .all(gateway.id, DEMO_PACKAGES.benchCount) as Array<{ id: number; created_at: string; updated_at: string }>;
  const builds = BENCH_PLATFORMS.map((platform) => Array.from({ length: 4 }, (_, variant) => store(artifact(`api-gateway-${platform}.tar.gz#${variant}`, 1024 + variant * 256))));
  let id = 1000;
  for (let i = 0; i < DEMO_PACKAGES.benchCount; i++) {
    const platform = i % BENCH_PLATFORMS.length;
    const build = Math.floor(i / BENCH_PLATFORMS.length);
    // the four platforms of a build come from one pipeline
    const pipeline = pipelines.length ? pipelines[build % pipelines.length] : undefined;
    const createdAt = pipeline ? pipeline.updated_at : at(DEMO_PACKAGES.benchCount - i);
    id++;
    insertPackage.run(id, gateway.id, `api-gateway-${BENCH_PLATFORMS[platform]}`, `0.${Math.floor(build / 100)}.${build % 100}-nightly`, 'generic', 'default', null, null, gateway.creator_id, createdAt, createdAt);
    const digests = builds[platform][build % 4];
    insertFile.run(id, `api-gateway-${BENCH_PLATFORMS[platform]}.tar.gz`, digests.size, digests.md5, digests.sha1, digests.sha256, pipeline?.id ?? null, createdAt, createdAt);
    if (pipeline) insertBuild.run(id, pipeline.id);
  }
}
