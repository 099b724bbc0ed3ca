import type { Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { AccessLevel } from '../model/access.ts';
import { insertProtection, protectDefaultBranch } from '../model/protected-branches.ts';
import { gitSync } from '../git/exec.ts';
import { ensureRepository } from '../git/repository.ts';
import { blameFile } from '../git/blame.ts';
import { generator } from './random.ts';
import { seedDemoMergeRequests } from './merge-requests.ts';

/**
 * Real git histories for the demo projects, written with `git fast-import` so the whole seed
 * stays fast. Lumen's history (a 50,000-line file touched by more than 200 commits) costs about
 * two seconds, so it is recorded as pending and built the first time its repository is used.
 */

export interface Person {
  name: string;
  email: string;
}

type FileContent = string | Buffer;

interface CommitSpec {
  branch: string;
  author: Person;
  at: Date;
  message: string;
  from?: number;
  merge?: number[];
  files?: Record<string, FileContent | null>;
  executable?: readonly string[];
  renames?: Array<[string, string]>;
}

const DAY_MS = 86_400_000;

/** A fast-import stream: marks for commits, inline data for files. */
export class History {
  private readonly chunks: Buffer[] = [];
  private mark = 0;
  private readonly heads = new Map<string, number>();

  private text(value: string): void {
    this.chunks.push(Buffer.from(value, 'utf8'));
  }

  private data(content: FileContent): void {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    this.text(`data ${bytes.length}\n`);
    this.chunks.push(bytes);
    this.text('\n');
  }

  private static quote(path: string): string {
    return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }

  private static signature(person: Person, at: Date): string {
    return `${person.name} <${person.email}> ${Math.floor(at.getTime() / 1000)} +0000`;
  }

  head(branch: string): number | undefined {
    return this.heads.get(branch);
  }

  commit(spec: CommitSpec): number {
    const mark = ++this.mark;
    const parent = spec.from ?? this.heads.get(spec.branch);
    this.text(`commit refs/heads/${spec.branch}\nmark :${mark}\n`);
    this.text(`author ${History.signature(spec.author, spec.at)}\ncommitter ${History.signature(spec.author, spec.at)}\n`);
    this.data(spec.message);
    if (parent !== undefined) this.text(`from :${parent}\n`);
    for (const other of spec.merge ?? []) this.text(`merge :${other}\n`);
    for (const [from, to] of spec.renames ?? []) this.text(`R ${History.quote(from)} ${History.quote(to)}\n`);
    for (const [path, content] of Object.entries(spec.files ?? {})) {
      if (content === null) {
        this.text(`D ${History.quote(path)}\n`);
        continue;
      }
      this.text(`M ${spec.executable?.includes(path) ? '100755' : '100644'} inline ${History.quote(path)}\n`);
      this.data(content);
    }
    this.text('\n');
    this.heads.set(spec.branch, mark);
    return mark;
  }

  branchAt(branch: string, mark: number): void {
    this.text(`reset refs/heads/${branch}\nfrom :${mark}\n\n`);
    this.heads.set(branch, mark);
  }

  tag(name: string, mark: number, tagger: Person, at: Date, message: string): void {
    this.text(`tag ${name}\nfrom :${mark}\ntagger ${History.signature(tagger, at)}\n`);
    this.data(message);
  }

  write(repo: string): void {
    gitSync(repo, ['fast-import', '--quiet', '--done'], { input: Buffer.concat([...this.chunks, Buffer.from('done\n')]) });
  }
}

export function people(sandbox: Sandbox, usernames: readonly string[]): Person[] {
  const rows = sandbox.db.prepare('SELECT username, name, email FROM users WHERE username IN (SELECT value FROM json_each(?))').all(JSON.stringify(usernames)) as Array<Person & { username: string }>;
  const found = usernames.map((username) => rows.find((row) => row.username === username)).filter((row): row is Person & { username: string } => Boolean(row));
  return found.length ? found.map(({ name, email }) => ({ name, email })) : [{ name: 'Administrator', email: 'admin@example.com' }];
}

// a tiny valid PNG (1x1, transparent) and an ICO header with pixels: binary files for the file browser
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4cf0000000049454e44ae426082', 'hex');
function binary(random: ReturnType<typeof generator>, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = random.int(0, 255);
  bytes[0] = 0;
  return bytes;
}

function clock(anchor: Date, startDaysAgo: number, endDaysAgo: number, steps: number) {
  let index = 0;
  // commits spread evenly from the start to the end, at working hours
  return () => {
    const daysAgo = startDaysAgo - ((startDaysAgo - endDaysAgo) * index++) / Math.max(1, steps - 1);
    const day = Math.floor(daysAgo);
    return new Date(anchor.getTime() - day * DAY_MS + (9 + (index % 8)) * 3_600_000 + (index * 7 % 60) * 60_000);
  };
}

function webApp(sandbox: Sandbox, repo: string, anchor: Date): void {
  const team = people(sandbox, ['grace.okafor', 'maya.chen', 'diego.ramirez', 'hiroshi.tanaka']);
  const random = generator(0x3eb);
  const history = new History();
  const when = clock(anchor, 960, 1, 40);
  const component = (name: string, body: string) => `import { useState } from 'react';\n\nexport function ${name}() {\n  const [open, setOpen] = useState(false);\n  return (\n    <section aria-label="${name}">\n      ${body}\n      <button onClick={() => setOpen(!open)}>{open ? 'Hide' : 'Show'}</button>\n    </section>\n  );\n}\n`;
  history.commit({
    branch: 'main', author: team[0], at: when(), message: 'Initial commit',
    files: {
      'README.md': '# Web App\n\nThe customer-facing web application.\n\n## Development\n\n```sh\nnpm install\nnpm run dev\n```\n',
      'package.json': '{\n  "name": "web-app",\n  "private": true,\n  "scripts": { "dev": "vite", "build": "vite build" },\n  "dependencies": { "react": "^18.2.0" }\n}\n',
      '.gitignore': 'node_modules\ndist\n',
      'src/main.tsx': "import { createRoot } from 'react-dom/client';\nimport { App } from './App';\n\ncreateRoot(document.getElementById('root')!).render(<App />);\n",
      'src/App.tsx': "export function App() {\n  return <h1>Acme</h1>;\n}\n",
      'src/utils.ts': 'export const formatPrice = (cents: number) => `$${(cents / 100).toFixed(2)}`;\n',
      'public/favicon.ico': binary(random, 318),
    },
  });
  for (let i = 0; i < 12; i++) {
    history.commit({ branch: 'main', author: random.pick(team), at: when(), message: random.pick(['Polish header spacing', 'Fix typo in README', 'Add loading states', 'Update dependencies', 'Improve error message']), files: { 'CHANGELOG.md': `# Changelog\n\n${Array.from({ length: i + 1 }, (_, n) => `- change ${n + 1}`).join('\n')}\n` } });
  }
  history.commit({ branch: 'main', author: team[1], at: when(), message: 'Move formatting helpers to src/lib', renames: [['src/utils.ts', 'src/lib/format.ts']] });
  const v1 = history.commit({ branch: 'main', author: team[0], at: when(), message: 'Add order summary', files: { 'src/components/Order Summary.tsx': component('OrderSummary', '<h2>Your order</h2>'), 'public/images/hero.png': PNG } });
  history.tag('v1.0.0', v1, team[0], when(), 'First public release');
  history.branchAt('feature/checkout', v1);
  for (const step of ['Add checkout form', 'Validate card fields', 'Show payment errors']) {
    history.commit({ branch: 'feature/checkout', author: team[2], at: when(), message: step, files: { 'src/components/Checkout.tsx': component('Checkout', `<h2>${step}</h2>`) } });
  }
  history.commit({ branch: 'main', author: team[1], at: when(), message: 'Tighten CSP headers', files: { 'public/_headers': "/*\n  Content-Security-Policy: default-src 'self'\n" } });
  // fast-import takes a merge's tree as written: the merged branch's files are listed again
  const merged = history.commit({
    branch: 'main', author: team[1], at: when(), merge: [history.head('feature/checkout')!],
    files: { 'src/components/Checkout.tsx': component('Checkout', '<h2>Show payment errors</h2>') },
    message: "Merge branch 'feature/checkout' into 'main'\n\nCheckout flow with card validation\n\nSee merge request acme-engineering/frontend/web-app!42",
  });
  history.tag('v1.1.0', merged, team[1], when(), 'Checkout');
  history.branchAt('fix/login-redirect', merged);
  history.commit({ branch: 'fix/login-redirect', author: team[2], at: when(), message: 'Keep the return URL through the login redirect\n\nCloses #118', files: { 'src/auth/redirect.ts': 'export const returnTo = (url: URL) => url.searchParams.get("return_to") ?? "/";\n' } });
  for (let i = 0; i < 8; i++) {
    history.commit({ branch: 'main', author: random.pick(team), at: when(), message: `Refine order summary (${i + 1}/8)\n\nSigned-off-by: ${team[i % team.length].name} <${team[i % team.length].email}>`, files: { 'src/components/Order Summary.tsx': component('OrderSummary', `<h2>Your order</h2>\n      <p>Revision ${i + 2}</p>`) } });
  }
  history.branchAt('renovate/react-19', history.head('main')!);
  history.commit({ branch: 'renovate/react-19', author: { name: 'renovate', email: 'renovate@noreply.example' }, at: when(), message: 'chore(deps): update react to v19', files: { 'package.json': '{\n  "name": "web-app",\n  "private": true,\n  "scripts": { "dev": "vite", "build": "vite build" },\n  "dependencies": { "react": "^19.0.0" }\n}\n' } });
  history.tag('v1.2.0', history.head('main')!, team[0], when(), 'Order summary revisions');
  mergeRequestBranches(history, team, anchor, v1, component);
  history.write(repo);
}

/** The source branches of the web app's demo merge requests (seed/merge-requests.ts opens the requests). */
export const MR_BRANCHES = {
  draft: 'feature/dark-mode',
  awaitingReview: 'feature/product-search',
  partlyApproved: 'feature/wishlist',
  approved: 'feature/coupon-codes',
  conflict: 'fix/order-summary-total',
  threads: 'feature/address-autocomplete',
  big: 'feature/design-tokens',
} as const;

/** The big request: 100 files of 50 lines each, 5,000 changed lines. */
export const MR_BIG_FILES = 100;
export const MR_BIG_LINES_PER_FILE = 50;

function mergeRequestBranches(history: History, team: Person[], anchor: Date, beforeRevisions: number, component: (name: string, body: string) => string): void {
  const base = history.head('main')!;
  const when = clock(anchor, 6, 0.2, 16);
  const branch = (name: string, from: number, author: Person, commits: Array<[string, Record<string, string>]>) => {
    history.branchAt(name, from);
    for (const [message, files] of commits) history.commit({ branch: name, author, at: when(), message, files });
  };
  branch(MR_BRANCHES.draft, base, team[1], [
    ['Add a dark theme', { 'src/theme/dark.css': ':root {\n  --bg: #111;\n  --fg: #eee;\n}\n' }],
    ['Follow the system colour scheme', { 'src/theme/dark.css': '@media (prefers-color-scheme: dark) {\n  :root {\n    --bg: #111;\n    --fg: #eee;\n  }\n}\n' }],
  ]);
  branch(MR_BRANCHES.awaitingReview, base, team[2], [
    ['Add product search', { 'src/components/Search.tsx': component('Search', '<input type="search" aria-label="Search products" />') }],
  ]);
  branch(MR_BRANCHES.partlyApproved, base, team[3], [
    ['Add a wishlist', { 'src/components/Wishlist.tsx': component('Wishlist', '<h2>Saved for later</h2>') }],
    ['Persist the wishlist', { 'src/lib/wishlist.ts': 'export const saved = new Set<string>();\n' }],
  ]);
  branch(MR_BRANCHES.approved, base, team[0], [
    ['Accept coupon codes at checkout', { 'src/lib/coupons.ts': 'export const discount = (code: string) => (code === "WELCOME10" ? 0.1 : 0);\n' }],
  ]);
  // from before the order summary revisions on main, changing the same lines: a real conflict
  branch(MR_BRANCHES.conflict, beforeRevisions, team[2], [
    ['Show the order total in the summary', { 'src/components/Order Summary.tsx': component('OrderSummary', '<h2>Your order total</h2>\n      <p>Total: {total}</p>') }],
  ]);
  branch(MR_BRANCHES.threads, base, team[1], [
    ['Autocomplete addresses', { 'src/components/Address.tsx': component('Address', '<input aria-label="Street address" autoComplete="street-address" />'), 'src/lib/places.ts': 'export async function suggest(query: string) {\n  const response = await fetch(`/api/places?q=${encodeURIComponent(query)}`);\n  return response.json();\n}\n' }],
  ]);
  const tokens: Record<string, string> = {};
  for (let file = 0; file < MR_BIG_FILES; file++) {
    const name = `token${String(file).padStart(3, '0')}`;
    const lines = Array.from({ length: MR_BIG_LINES_PER_FILE - 2 }, (_, line) => `  ${name}_${line}: '${(file * 97 + line * 31) % 360}deg',`);
    tokens[`src/tokens/${name}.ts`] = [`export const ${name} = {`, ...lines, '};'].join('\n') + '\n';
  }
  branch(MR_BRANCHES.big, base, team[0], [['Generate design tokens', tokens]]);
}

function dotfiles(sandbox: Sandbox, repo: string, anchor: Date): void {
  const [maya] = people(sandbox, ['maya.chen']);
  const history = new History();
  const when = clock(anchor, 790, 3, 8);
  history.commit({ branch: 'main', author: maya, at: when(), message: 'zsh and tmux', files: { '.zshrc': 'export EDITOR=nvim\nalias gs="git status"\n', '.tmux.conf': 'set -g mouse on\n', 'install.sh': '#!/bin/sh\nset -e\nln -sf "$PWD/.zshrc" ~/.zshrc\n' }, executable: ['install.sh'] });
  history.commit({ branch: 'main', author: maya, at: when(), message: 'vim config', files: { '.vimrc': 'set number\nset relativenumber\n' } });
  history.commit({ branch: 'main', author: maya, at: when(), message: 'Switch to neovim', renames: [['.vimrc', '.config/nvim/init.vim']] });
  history.commit({ branch: 'main', author: maya, at: when(), message: 'Lua config for neovim', files: { '.config/nvim/init.lua': 'vim.opt.number = true\nvim.opt.relativenumber = true\n', '.config/nvim/init.vim': null } });
  for (const alias of ['gl="git log --oneline"', 'gd="git diff"', 'k="kubectl"', 'tf="terraform"']) {
    history.commit({ branch: 'main', author: maya, at: when(), message: `alias ${alias.split('=')[0]}`, files: { '.zshrc': `export EDITOR=nvim\nalias gs="git status"\nalias ${alias}\n` } });
  }
  history.write(repo);
}

function paymentsService(sandbox: Sandbox, repo: string, anchor: Date, defaultBranch: string): void {
  const team = people(sandbox, ['hiroshi.tanaka', 'maya.chen', 'tom.becker']);
  const history = new History();
  const when = clock(anchor, 880, 2, 16);
  const controller = (version: number) => `package com.acme.payments;\n\nimport org.springframework.web.bind.annotation.*;\n\n@RestController\n@RequestMapping("/v${version}/payments")\npublic class PaymentController {\n    @PostMapping("/authorize")\n    public Authorization authorize(@RequestBody AuthorizeRequest request) {\n        return service.authorize(request);\n    }\n}\n`;
  history.commit({ branch: defaultBranch, author: team[0], at: when(), message: 'Service skeleton', files: { 'pom.xml': '<project>\n  <artifactId>payments-service</artifactId>\n  <version>2.0.0</version>\n</project>\n', 'src/main/java/com/acme/payments/PaymentController.java': controller(1), 'README.md': '# Payments Service\n\nPCI scope. See the runbook before deploying.\n' } });
  for (let i = 0; i < 6; i++) history.commit({ branch: defaultBranch, author: team[i % 2], at: when(), message: `Capture retries (${i + 1})`, files: { 'src/main/java/com/acme/payments/CaptureRetry.java': `package com.acme.payments;\n\nfinal class CaptureRetry {\n    static final int MAX_ATTEMPTS = ${i + 2};\n}\n` } });
  const release = history.commit({ branch: defaultBranch, author: team[0], at: when(), message: 'API v2', files: { 'src/main/java/com/acme/payments/PaymentController.java': controller(2) } });
  history.tag('v2.3.0', release, team[0], when(), 'Payments 2.3.0');
  history.branchAt('feature/refunds-v2', release);
  history.commit({ branch: 'feature/refunds-v2', author: team[2], at: when(), message: 'Partial refunds', files: { 'src/main/java/com/acme/payments/Refunds.java': 'package com.acme.payments;\n\nfinal class Refunds {}\n' } });
  history.branchAt('hotfix/capture-timeout', release);
  const hotfix = history.commit({ branch: 'hotfix/capture-timeout', author: team[1], at: when(), message: 'Raise capture timeout to 30s', files: { 'src/main/resources/application.yml': 'capture:\n  timeout: 30s\n' } });
  history.commit({ branch: defaultBranch, author: team[0], at: when(), merge: [hotfix], message: "Merge branch 'hotfix/capture-timeout'", files: { 'src/main/resources/application.yml': 'capture:\n  timeout: 30s\n' } });
  history.write(repo);
}

/** The glyph table's line for code point `index`, its numbers drawn from `random`. */
function glyphLine(index: number, random: ReturnType<typeof generator>): Buffer {
  return Buffer.from(`  [0x${(0x20 + index).toString(16)}, ${random.int(200, 1400)}, ${random.int(-40, 120)}],\n`);
}

/** Lumen's path to the 50,000-line file, whose blame the seed warms once the history exists. */
export const LUMEN_BIG_FILE = 'src/text/glyph_table.rs';

function lumen(sandbox: Sandbox, repo: string, anchor: Date): void {
  const team = people(sandbox, ['sofia.lindqvist', 'kwame.mensah', 'wei.zhang', 'maya.chen']);
  const random = generator(0x1a3e);
  const history = new History();
  const when = clock(anchor, 1060, 1, 270);
  const table: Buffer[] = [];
  const header = Buffer.from('// Glyph metrics for the built-in font: [code point, advance, bearing].\n// Generated by tools/glyphgen; edit the generator, not this file.\npub static GLYPHS: &[[i32; 3]] = &[\n');
  const footer = Buffer.from('];\n');
  const tableFile = () => Buffer.concat([header, ...table, footer]);
  const TABLE_LINES = 50_000 - 4;
  while (table.length < 20_000) table.push(glyphLine(table.length, random));
  let guide = '# Getting started\n\nAdd `lumen` to your Cargo.toml.\n';
  const firstLight = history.commit({
    branch: 'main', author: team[0], at: when(), message: 'Lumen: first light',
    files: {
      'README.md': '# Lumen\n\nA fast, portable 2D rendering engine written in Rust.\n',
      'Cargo.toml': '[package]\nname = "lumen"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub mod renderer;\npub mod text;\n',
      'src/renderer.rs': 'pub struct Renderer {\n    pub width: u32,\n    pub height: u32,\n}\n',
      'src/text/mod.rs': 'pub mod glyph_table;\n',
      [LUMEN_BIG_FILE]: tableFile(),
      'docs/getting started.md': guide,
      'assets/logo.png': PNG,
    },
  });
  const versions = ['v0.2.0', 'v0.3.0', 'v0.4.0', 'v0.5.0', 'v0.6.0', 'v0.7.0', 'v0.8.0', 'v0.9.0', 'v1.0.0', 'v1.1.0'];
  const blocks = ['Latin-1', 'Greek', 'Cyrillic', 'Arabic', 'Devanagari', 'CJK', 'Hangul', 'Emoji', 'Box Drawing', 'Math Operators'];
  for (let step = 1; step <= 230; step++) {
    // the table grows to 50,000 lines over the first 100 commits, and every commit retouches some lines
    const grow = Math.min(TABLE_LINES - table.length, 300);
    for (let i = 0; i < grow; i++) table.push(glyphLine(table.length, random));
    for (let i = 0; i < 40; i++) {
      const at = random.int(0, table.length - 1);
      table[at] = glyphLine(at, random);
    }
    const files: Record<string, FileContent> = { [LUMEN_BIG_FILE]: tableFile() };
    if (step === 60) files['src/lib.rs'] = 'pub mod render;\npub mod text;\n';
    const reviewer = team[(step + 1) % team.length];
    history.commit({
      branch: 'main', author: random.pick(team), at: when(),
      message: `glyph table: ${grow ? `add ${grow} glyphs and ` : ''}adjust ${blocks[step % blocks.length]} advances\n\nRegenerated with tools/glyphgen (revision ${step}).${step % 7 === 0 ? `\n\nReviewed-by: ${reviewer.name} <${reviewer.email}>` : ''}`,
      files,
      ...(step === 60 ? { renames: [['src/renderer.rs', 'src/render/mod.rs']] as Array<[string, string]> } : {}),
    });
    if (step % 25 === 0) {
      // documentation goes through develop and comes back with a merge and a release tag
      const version = versions[step / 25 - 1];
      history.branchAt('develop', history.head('main')!);
      guide += `\n## ${blocks[(step / 25) % blocks.length]} text\n\nSee the ${version} notes.\n`;
      history.commit({ branch: 'develop', author: team[1], at: when(), message: `docs: ${blocks[(step / 25) % blocks.length]} guide`, files: { 'docs/getting started.md': guide } });
      history.commit({ branch: 'develop', author: team[2], at: when(), message: `Prepare ${version}`, files: { 'CHANGELOG.md': `# Changelog\n\n${versions.slice(0, step / 25).map((v) => `- ${v}`).join('\n')}\n` } });
      const merge = history.commit({
        branch: 'main', author: team[0], at: when(), merge: [history.head('develop')!], message: "Merge branch 'develop' into 'main'",
        files: { 'docs/getting started.md': guide, 'CHANGELOG.md': `# Changelog\n\n${versions.slice(0, step / 25).map((v) => `- ${v}`).join('\n')}\n` },
      });
      history.tag(version, merge, team[0], when(), `Lumen ${version.slice(1)}`);
    }
  }
  history.branchAt('release/1.x', history.head('main')!);
  history.commit({ branch: 'release/1.x', author: team[1], at: when(), message: 'Backport: fix kerning for Greek capitals', files: { 'RELEASE-NOTES.md': '# 1.x\n\n- Greek kerning fix\n' } });
  history.branchAt('feature/gpu-backend', history.head('main')!);
  history.commit({ branch: 'feature/gpu-backend', author: team[2], at: when(), message: 'WIP: wgpu backend', files: { 'src/render/gpu.rs': 'pub struct GpuBackend;\n' } });
  longHistory(history, team, anchor, firstLight);
  history.write(repo);
}

/** Lumen's branch of many small commits, for the history list's bench and its deep pages. */
export const LUMEN_LONG_BRANCH = 'history/long';
export const LUMEN_LONG_COMMITS = 5_000;

/** Journal entries on `history/long`, from Lumen's first commit: each commit rewrites one small file, so it costs little. */
function longHistory(history: History, team: Person[], anchor: Date, root: number): void {
  // its own generator and clock: Lumen's other branches stay exactly as they were
  const random = generator(0x5000);
  const when = clock(anchor, 1000, 1, LUMEN_LONG_COMMITS);
  const topics = ['renderer', 'text', 'gpu', 'docs', 'ci', 'api', 'perf', 'tests'];
  history.branchAt(LUMEN_LONG_BRANCH, root);
  for (let entry = 1; entry <= LUMEN_LONG_COMMITS; entry++) {
    const topic = random.pick(topics);
    history.commit({
      branch: LUMEN_LONG_BRANCH, author: random.pick(team), at: when(),
      message: `journal: ${topic} entry ${entry}`,
      files: { [`journal/${topic}.md`]: `# ${topic}\n\nLatest entry: ${entry}\n` },
    });
  }
}

type Recipe = 'lumen';
const RECIPES: Record<Recipe, (sandbox: Sandbox, repo: string, anchor: Date) => void> = { lumen };
const pendingKey = (projectId: number) => `pending_repository:${projectId}`;

/** Builds a repository the demo seed left pending, the first time anything reads or writes it. */
export function buildPendingRepository(sandbox: Sandbox, project: ProjectRow): void {
  const row = sandbox.db.prepare('SELECT value FROM settings WHERE key = ?').get(pendingKey(project.id)) as { value: string } | undefined;
  if (!row) return;
  const { recipe, anchor } = JSON.parse(row.value) as { recipe: Recipe; anchor: number };
  const repo = ensureRepository(sandbox, project);
  RECIPES[recipe](sandbox, repo, new Date(anchor));
  sandbox.db.prepare('DELETE FROM settings WHERE key = ?').run(pendingKey(project.id));
  // the big file's blame takes git about a second: start it now, in the background, for the first reader
  const head = gitSync(repo, ['rev-parse', `refs/heads/${project.default_branch}`]).toString().trim();
  blameFile(repo, head, LUMEN_BIG_FILE).catch(() => undefined);
}

export function hasPendingRepository(sandbox: Pick<Sandbox, 'db'>, projectId: number): boolean {
  return Boolean(sandbox.db.prepare('SELECT 1 FROM settings WHERE key = ?').get(pendingKey(projectId)));
}

/** Seeds the demo repositories inside the demo seed's transaction. */
export function seedDemoRepositories(sandbox: Sandbox, projects: { webApp: ProjectRow; dotfiles: ProjectRow; paymentsService: ProjectRow; ledger: ProjectRow; lumen: ProjectRow }, anchor: Date): void {
  const { db } = sandbox;
  const webAppRepo = ensureRepository(sandbox, projects.webApp);
  webApp(sandbox, webAppRepo, anchor);
  seedDemoMergeRequests(sandbox, projects.webApp, webAppRepo, anchor);
  dotfiles(sandbox, ensureRepository(sandbox, projects.dotfiles), anchor);
  paymentsService(sandbox, ensureRepository(sandbox, projects.paymentsService), anchor, projects.paymentsService.default_branch);
  paymentsService(sandbox, ensureRepository(sandbox, projects.ledger), anchor, projects.ledger.default_branch);
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(pendingKey(projects.lumen.id), JSON.stringify({ recipe: 'lumen', anchor: anchor.getTime() }));
  const stamp = anchor.toISOString();
  for (const project of Object.values(projects)) protectDefaultBranch(db, project.id, project.default_branch, stamp);
  insertProtection(db, projects.lumen.id, {
    name: 'release/*', push: [{ access_level: AccessLevel.MAINTAINER }], merge: [{ access_level: AccessLevel.DEVELOPER }],
    unprotect: [{ access_level: AccessLevel.MAINTAINER }], allowForcePush: false, codeOwnerApprovalRequired: false, createdAt: stamp,
  });
  insertProtection(db, projects.webApp.id, {
    name: 'feature/*', push: [{ access_level: AccessLevel.DEVELOPER }], merge: [{ access_level: AccessLevel.DEVELOPER }],
    unprotect: [{ access_level: AccessLevel.MAINTAINER }], allowForcePush: true, codeOwnerApprovalRequired: false, createdAt: stamp,
  });
}
