import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { emit, log, round } from './report.ts';
import { shellKey } from '../server/route-preloads.ts';

/**
 * Bundle figures from Vite's manifest (dist/.vite/manifest.json): the gzip size of the JavaScript
 * a first screen needs, and of the largest route. Sizes are gzip at zlib's default level, as
 * Vite's own build report and most servers use, in kB of 1000 bytes.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const MANIFEST = path.join(DIST, '.vite', 'manifest.json');
// what a build is made from: newer than the manifest means the build is stale
const BUILD_INPUTS = ['src', 'index.html', 'vite.config.ts', 'package-lock.json'];
const APP_SHELL_SOURCE = 'src/features/shell/app-shell.tsx';
// the shell's menus, which it loads once idle (deferred-menus.tsx): a later navigation finds them there
const SHELL_IDLE_SOURCES = ['src/features/shell/user-menu.tsx', 'src/features/shell/context-switcher.tsx', 'src/features/shell/command-palette.tsx'];
// the lazily loaded body of <Markdown> (src/components/markdown.tsx): parser, sanitizer and rules
const MARKDOWN_SOURCE = 'src/components/markdown-view.tsx';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function newestModification(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(target).map((entry) => newestModification(path.join(target, entry))));
}

/** Runs `vite build` when dist/ is missing or older than its sources; its output goes to stderr. */
export function ensureBuilt(): void {
  const builtAt = fs.existsSync(MANIFEST) && fs.existsSync(path.join(DIST, 'index.html')) ? fs.statSync(MANIFEST).mtimeMs : 0;
  const sourcesAt = Math.max(...BUILD_INPUTS.map((input) => newestModification(path.join(ROOT, input))));
  if (builtAt >= sourcesAt) return;
  log(builtAt ? 'dist/ is older than its sources: vite build' : 'dist/ is missing: vite build');
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  // stdout of the build goes to our stderr: stdout carries figures only
  const built = spawnSync(process.execPath, [vite, 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (built.status !== 0) throw new Error(`vite build failed (${built.signal ?? `exit code ${built.status}`})`);
}

export function readManifest(): Manifest {
  return JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
}

const gzipCache = new Map<string, number>();
function gzipBytes(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = zlib.gzipSync(fs.readFileSync(path.join(DIST, file))).length;
    gzipCache.set(file, size);
  }
  return size;
}

const kB = (bytes: number) => round(bytes / 1000, 2);

/** The manifest keys of these chunks and of everything they import statically, transitively. */
function withStaticImports(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/** The route file of a manifest key, e.g. `src/routes/index.tsx?tsr-split=component` -> `src/routes/index.tsx`. */
const routeFileOf = (key: string) => key.split('?')[0];

/** Every chunk of one route file: the router loads all of its split parts (component, error, pending). */
function routeChunks(manifest: Manifest, routeFile: string): string[] {
  const keys = Object.keys(manifest).filter((key) => manifest[key].src !== undefined && routeFileOf(key) === routeFile);
  if (!keys.length) throw new Error(`the manifest has no chunk for ${routeFile}`);
  return keys;
}

function entryKey(manifest: Manifest): string {
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk in the manifest, found ${entries.length}`);
  return entries[0];
}

const jsOnly = (manifest: Manifest, keys: Iterable<string>) => [...keys].filter((key) => manifest[key].file.endsWith('.js'));
const gzipOf = (manifest: Manifest, keys: Iterable<string>) => jsOnly(manifest, keys).reduce((sum, key) => sum + gzipBytes(manifest[key].file), 0);

/**
 * What a lazily imported module downloads in the build at `dir` beyond the entry: its chunk and
 * the chunks it imports that the entry does not (`source` is its manifest key in that build).
 */
export function gzipOfDynamicImport(dir: string, source: string): { kB: number; files: string[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = withStaticImports(manifest, [entryKey(manifest)]);
  const files = jsOnly(manifest, withStaticImports(manifest, [source]))
    .filter((key) => !entry.has(key))
    .map((key) => manifest[key].file);
  return { kB: kB(files.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(dir, file))).length, 0)), files };
}

export function bundleFigures(): void {
  ensureBuilt();
  const manifest = readManifest();
  const entry = entryKey(manifest);
  const entryClosure = withStaticImports(manifest, [entry]);

  // signed out, every address leads to /connect: the entry and the connect route
  const signedOut = withStaticImports(manifest, [entry, ...routeChunks(manifest, 'src/routes/connect.tsx')]);
  // signed in on /: the entry, the lazily loaded shell and the index route
  const shell = shellKey(manifest);
  if (!shell) throw new Error(`the manifest has no chunk for ${APP_SHELL_SOURCE} (the lazily loaded shell)`);
  // what is there when a route is reached from the running console: the shell and what it preloads once idle
  const runningShell = withStaticImports(manifest, [entry, shell, ...SHELL_IDLE_SOURCES]);
  const home = withStaticImports(manifest, [entry, shell, ...routeChunks(manifest, 'src/routes/index.tsx')]);
  // the boot script (server/build-plugin.ts) is no chunk of the manifest: the page lists it before the entry
  const boot = /src="\/(assets\/boot-[^"]+\.js)"/.exec(fs.readFileSync(path.join(DIST, 'index.html'), 'utf8'))?.[1];
  if (!boot) throw new Error('dist/index.html lists no boot script');
  log(`initial JS on /connect: ${boot}, ${jsOnly(manifest, signedOut).map((key) => manifest[key].file).join(', ')}`);
  log(`initial JS on / signed in: ${boot}, ${jsOnly(manifest, home).map((key) => manifest[key].file).join(', ')}`);
  emit({ name: 'console.initial_js_gzip', value: kB(gzipBytes(boot) + gzipOf(manifest, signedOut)), unit: 'KB' });
  emit({ name: 'console.initial_js_gzip.home', value: kB(gzipBytes(boot) + gzipOf(manifest, home)), unit: 'KB' });

  // A route weighs what navigating to it downloads beyond what is already there: its own chunks and
  // the shared chunks only it (or other routes) import. Rollup moves a route's code into shared
  // chunks freely, so its own file alone would say little.
  const routeFiles = [...new Set(Object.keys(manifest).filter((key) => manifest[key].src?.startsWith('src/routes/')).map(routeFileOf))];
  const weights = routeFiles.map((routeFile) => {
    const baseline = routeFile === 'src/routes/connect.tsx' ? entryClosure : runningShell;
    const closure = withStaticImports(manifest, routeChunks(manifest, routeFile));
    const added = [...closure].filter((key) => !baseline.has(key));
    return { routeFile, bytes: gzipOf(manifest, added), files: jsOnly(manifest, added).map((key) => manifest[key].file) };
  });
  weights.sort((a, b) => b.bytes - a.bytes);
  for (const weight of weights) log(`route ${weight.routeFile}: ${kB(weight.bytes)} kB gzip (${weight.files.join(', ')})`);
  const largest = weights[0];
  log(`largest route: ${largest.routeFile}`);
  const largestFile = Object.values(manifest)
    .filter((chunk) => chunk.file.endsWith('.js'))
    .sort((a, b) => gzipBytes(b.file) - gzipBytes(a.file))[0];
  log(`largest single JS file: ${largestFile.file} (${kB(gzipBytes(largestFile.file))} kB gzip)`);
  emit({ name: 'console.largest_route_chunk_gzip', value: kB(largest.bytes), unit: 'KB' });
  // the issue board with its drag and drop (issue 13: at most 40 KB)
  const board = weights.find((weight) => weight.routeFile === 'src/routes/projects/$projectId/boards.tsx');
  if (board) emit({ name: 'console.board_route_gzip', value: kB(board.bytes), unit: 'KB', goal: 40 });
  // the merge request board, a project's (issue 14: at most 40 KB); the group's and the review queue's share its chunks
  const mergeRequestBoard = weights.find((weight) => weight.routeFile === 'src/routes/projects/$projectId/merge-request-board.tsx');
  if (mergeRequestBoard) emit({ name: 'console.merge_request_board_route_gzip', value: kB(mergeRequestBoard.bytes), unit: 'KB', goal: 40 });
  // a merge request's Changes tab: the diff viewer, its parser and virtualized list (issue 14: at most 40 KB; highlight.js loads apart, per language)
  const changes = weights.find((weight) => weight.routeFile === 'src/routes/projects/$projectId/merge-requests/$mergeRequestIid/changes.tsx');
  if (changes) emit({ name: 'console.merge_request_changes_route_gzip', value: kB(changes.bytes), unit: 'KB', goal: 40 });

  // what the first Markdown on screen downloads beyond the running shell (its highlight.js grammars load apart, per language)
  if (manifest[MARKDOWN_SOURCE]) {
    const added = [...withStaticImports(manifest, [MARKDOWN_SOURCE])].filter((key) => !runningShell.has(key));
    log(`markdown: ${jsOnly(manifest, added).map((key) => manifest[key].file).join(', ')}`);
    emit({ name: 'console.markdown_chunk_gzip', value: kB(gzipOf(manifest, added)), unit: 'KB', goal: 40 });
  } else log(`no screen renders Markdown yet: the build has no chunk for ${MARKDOWN_SOURCE} (console.markdown reports it from its own page)`);
}
