/**
 * The chunks a deep link needs beyond the entry, listed in its page as modulepreload links: they
 * download beside the entry instead of after it has run, which on a slow link is a round trip and
 * the route's bytes earlier. Read from Vite's manifest and the file-based route names.
 */

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

const ROUTES_DIR = 'src/routes/';
const SHELL_SOURCE = 'src/features/shell/app-shell.tsx';
// vite.config.ts gathers the shell and all it imports into one chunk of this name
const SHELL_CHUNK = /^_shell-[\w-]+\.js$/;
// the screens that run without the shell (src/routes/__root.tsx)
const BARE_PATHS = new Set(['/connect']);
// what the route shows in its own place, not what it shows when something is wrong
const NEEDED_SPLITS = /\?tsr-split=(?:component|loader)(?:---(?:component|loader))*$/;

interface RoutePattern {
  source: string;
  matcher: RegExp;
  /** Static segments win over parameters, as the router ranks them. */
  staticSegments: number;
}

/**
 * A route file's URL pattern under TanStack Router's file naming: `.` and `/` separate segments,
 * `index` is the folder itself, a trailing `_` only un-nests, `$name` is one segment and `$` the rest.
 */
export function routePattern(source: string): RoutePattern | undefined {
  if (!source.startsWith(ROUTES_DIR) || !source.endsWith('.tsx')) return undefined;
  const name = source.slice(ROUTES_DIR.length, -'.tsx'.length);
  if (name === '__root') return undefined;
  const segments = name.split(/[/.]/).filter((segment) => segment !== 'index' && !/^\(.*\)$/.test(segment) && !segment.startsWith('_'));
  let staticSegments = 0;
  const parts = segments.map((raw) => {
    const segment = raw.replace(/_$/, '');
    if (segment === '$') return '(?:/.*)?';
    if (segment.startsWith('$')) return '/[^/]+';
    staticSegments++;
    return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  });
  return { source, matcher: new RegExp(`^${parts.join('')}/?$`), staticSegments };
}

/** The files of `keys` and of everything they import statically, minus those in `known`. */
function filesOf(manifest: Manifest, keys: string[], known: Set<string>): string[] {
  const files: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || known.has(chunk.file)) return;
    known.add(chunk.file);
    files.push(chunk.file);
    // a chunk's styles: the chunk is not run before they have arrived (Vite's preload helper waits)
    for (const style of chunk.css ?? []) if (!known.has(style)) (known.add(style), files.push(style));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/** The manifest key of the shell's chunk: its own, or the chunk the build gathered it into. */
export function shellKey(manifest: Manifest): string | undefined {
  return manifest[SHELL_SOURCE] ? SHELL_SOURCE : Object.keys(manifest).find((key) => SHELL_CHUNK.test(key));
}

export interface RoutePreloads {
  /** The files (under the build's root, e.g. `assets/x.js`) a page at `pathname` needs besides the entry's own. */
  forPath(pathname: string): string[];
}

export function routePreloads(manifest: Manifest): RoutePreloads {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  // the entry and its static imports are in the page already
  const inPage = new Set<string>();
  if (entry) filesOf(manifest, [entry[0]], inPage);
  const splitsBySource = new Map<string, string[]>();
  for (const key of Object.keys(manifest)) {
    const source = key.split('?')[0];
    if (NEEDED_SPLITS.test(key)) splitsBySource.set(source, [...(splitsBySource.get(source) ?? []), key]);
  }
  const patterns = [...splitsBySource.keys()].map(routePattern).filter((pattern): pattern is RoutePattern => pattern !== undefined);
  const cache = new Map<string, string[]>();
  const shell = shellKey(manifest);
  return {
    forPath(pathname) {
      const route = patterns.filter((pattern) => pattern.matcher.test(pathname)).sort((a, b) => b.staticSegments - a.staticSegments)[0];
      const cacheKey = `${route?.source ?? ''}|${BARE_PATHS.has(pathname)}`;
      let files = cache.get(cacheKey);
      if (!files) {
        const known = new Set(inPage);
        const routeFiles = route ? filesOf(manifest, splitsBySource.get(route.source)!, known) : [];
        files = [...routeFiles, ...(BARE_PATHS.has(pathname) ? [] : filesOf(manifest, shell ? [shell] : [], known))];
        cache.set(cacheKey, files);
      }
      return files;
    },
  };
}

/**
 * `html` with preload links for `files` at the end of its head: modulepreload for scripts, and a
 * preload of styles that Vite's preload helper then finds in the cache (CORS mode as it asks).
 */
export function withPreloads(html: string, files: string[]): string {
  if (files.length === 0) return html;
  const links = files.map((file) => (file.endsWith('.css') ? `<link rel="preload" as="style" crossorigin href="/${file}">` : `<link rel="modulepreload" crossorigin href="/${file}">`));
  return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}
