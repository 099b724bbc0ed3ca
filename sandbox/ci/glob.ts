/**
 * Path globs as the platform matches CI paths (`rules:changes`, `rules:exists`,
 * `artifacts:reports:junit`): `*` and `?` within a directory, `**​/` across directories
 * (zero or more), `{a,b}` alternatives, `[abc]` classes; dot files match too.
 */
const cache = new Map<string, RegExp>();

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/** The pattern as a RegExp over whole paths (compiled once per pattern). */
export function globRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  const clean = pattern.replace(/^\.\//, '').replace(/^\/+/, '');
  let source = '';
  let braces = 0;
  for (let i = 0; i < clean.length; i += 1) {
    const c = clean[i];
    if (c === '*' && clean[i + 1] === '*' && (clean[i + 2] === '/' || i + 2 === clean.length)) {
      source += clean[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += clean[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = clean.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${clean.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      braces += 1;
      source += '(?:';
    } else if (c === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (c === ',' && braces > 0) source += '|';
    else source += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  source += ')'.repeat(braces);
  try {
    re = new RegExp(`^${source}$`);
  } catch {
    re = /(?!)/;
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** The paths a pattern matches, sorted; a plain path matches itself only. */
export function matchPaths(pattern: string, paths: Iterable<string>): string[] {
  const re = globRegExp(pattern);
  const out: string[] = [];
  for (const path of paths) if (re.test(path)) out.push(path);
  return out.sort();
}
