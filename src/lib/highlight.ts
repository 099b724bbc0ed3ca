import type { HLJSApi, LanguageFn } from 'highlight.js';

type LanguageLoader = () => Promise<{ default: LanguageFn }>;

// one chunk per language: a file loads only the grammar it needs
const LANGUAGES: Record<string, LanguageLoader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  elixir: () => import('highlight.js/lib/languages/elixir'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scala: () => import('highlight.js/lib/languages/scala'),
  scss: () => import('highlight.js/lib/languages/scss'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vim: () => import('highlight.js/lib/languages/vim'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const BY_EXTENSION: Record<string, string> = {
  sh: 'bash', bash: 'bash', zsh: 'bash', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', cs: 'csharp', css: 'css',
  diff: 'diff', patch: 'diff', ex: 'elixir', exs: 'elixir', go: 'go', graphql: 'graphql', gql: 'graphql', ini: 'ini', toml: 'ini', cfg: 'ini',
  conf: 'ini', java: 'java', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', json: 'json', kt: 'kotlin', kts: 'kotlin',
  less: 'less', lua: 'lua', mk: 'makefile', md: 'markdown', markdown: 'markdown', pl: 'perl', pm: 'perl', php: 'php', proto: 'protobuf',
  py: 'python', rb: 'ruby', rs: 'rust', scala: 'scala', scss: 'scss', sql: 'sql', swift: 'swift', ts: 'typescript', tsx: 'typescript',
  mts: 'typescript', cts: 'typescript', vim: 'vim', xml: 'xml', html: 'xml', htm: 'xml', svg: 'xml', vue: 'xml', yml: 'yaml', yaml: 'yaml',
};

const BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile', makefile: 'makefile', gemfile: 'ruby', rakefile: 'ruby', '.bashrc': 'bash', '.zshrc': 'bash', '.profile': 'bash',
  '.bash_profile': 'bash', '.vimrc': 'vim', '.gitconfig': 'ini', '.editorconfig': 'ini', 'cargo.lock': 'ini',
};

// a name typed by a user ("constructor", "__proto__") must not reach the tables' prototype
const own = (table: Record<string, string>, key: string): string | null => (Object.hasOwn(table, key) ? table[key] : null);

/** The highlight.js language for a file name, or null for plain text. */
export function languageFor(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return own(BY_NAME, lower) ?? (dot > 0 ? own(BY_EXTENSION, lower.slice(dot + 1)) : null);
}

// names written after ``` that are neither a grammar's name nor a file extension
const FENCE_ALIASES: Record<string, string> = {
  shell: 'bash', console: 'bash', golang: 'go', docker: 'dockerfile', make: 'makefile', 'c++': 'cpp', 'c#': 'csharp', proto: 'protobuf',
};

/** The highlight.js language of a fenced code block's info word (```ts, ```python, ```shell), or null for plain text. */
export function languageForFence(info: string): string | null {
  const name = info.trim().toLowerCase();
  return Object.hasOwn(LANGUAGES, name) ? name : own(FENCE_ALIASES, name) ?? own(BY_EXTENSION, name);
}

let core: Promise<HLJSApi> | null = null;

/** highlight.js core with the one language registered; loaded on first use. */
export async function loadHighlighter(language: string): Promise<HLJSApi | null> {
  const loader = LANGUAGES[language];
  if (!loader) return null;
  core ??= import('highlight.js/lib/core').then((module) => module.default);
  const [hljs, grammar] = await Promise.all([core, loader()]);
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, grammar.default);
  return hljs;
}

const TOKEN = /<span[^>]*>|<\/span>|\n|[^<\n]+|</g;

/**
 * Splits highlight.js HTML into one string per line: spans open across a line break are closed
 * at its end and reopened on the next line, so each line stands alone.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const [token] of html.matchAll(TOKEN)) {
    if (token === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else {
      if (token.startsWith('<span')) open.push(token);
      else if (token === '</span>') open.pop();
      line += token;
    }
  }
  lines.push(line);
  return lines;
}

/** HTML for `lines` (one string each), highlighted together so strings and comments spanning lines stay right. */
export function highlightLines(hljs: HLJSApi, language: string, lines: readonly string[]): string[] {
  const html = hljs.highlight(lines.join('\n'), { language, ignoreIllegals: true }).value;
  return splitHighlightedLines(html);
}

/** A highlighted line as data: text, or a span with highlight.js's classes around more of the same. */
export type HighlightNode = string | { className: string; children: HighlightNode[] };

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/**
 * One line of highlight.js HTML (from splitHighlightedLines) as nodes: its spans keep their
 * classes and nesting, its text is decoded back to the file's characters, so the view renders
 * it as React text and never as HTML.
 */
export function highlightedLineNodes(html: string): HighlightNode[] {
  const root: HighlightNode[] = [];
  const open: HighlightNode[][] = [root];
  for (const [token] of html.matchAll(TOKEN)) {
    const children = open[open.length - 1];
    if (token.startsWith('<span')) {
      const span = { className: /class="([^"]*)"/.exec(token)?.[1] ?? '', children: [] as HighlightNode[] };
      children.push(span);
      open.push(span.children);
    } else if (token === '</span>') {
      if (open.length > 1) open.pop();
    } else {
      children.push(token.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity]));
    }
  }
  return root;
}
