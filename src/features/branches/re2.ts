/**
 * What RE2 (the platform's branch regex engine) refuses and a JavaScript RegExp would accept,
 * found before the request: backreferences, lookarounds, atomic groups, possessive quantifiers,
 * `\Z`/`\G`, and what no regex engine takes (an unclosed group or class, a trailing backslash).
 * RE2-only syntax (`(?P<name>`, `\A`, `\z`, `\Q…\E`, `[[:alpha:]]`, inline flags) passes:
 * anything this misses gets the server's 400 instead.
 */
export function re2Problem(pattern: string): string | null {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const next = pattern[i + 1];
    if (char === '\\') {
      if (next === undefined) return 'The expression ends with a lone backslash.';
      if (next === 'Q') {
        // literal text up to \E (or the end), nothing in it is syntax
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return `Backreferences (\\${next}…) are not supported: the platform matches with RE2, which has none.`;
      if (!inClass && (next === 'Z' || next === 'G')) return `\\${next} is not supported by RE2: use \\z or $ for the end of the name.`;
      i++;
      continue;
    }
    if (inClass) {
      if (char === '[' && next === ':') {
        const end = pattern.indexOf(':]', i + 2);
        if (end >= 0) i = end + 1;
        continue;
      }
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      // a ] right after [ or [^ is a literal
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (char === '(') {
      if (next === '?') {
        const rest = pattern.slice(i + 2);
        if (/^(=|!|<=|<!)/.test(rest)) return 'Lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: the platform matches with RE2, which has none.';
        if (rest.startsWith('>')) return 'Atomic groups ((?>…)) are not supported by RE2.';
        if (rest.startsWith('#')) return 'Comments ((?#…)) are not supported by RE2.';
      }
      depth++;
      continue;
    }
    if (char === ')') {
      if (depth === 0) return 'There is a ) without its (.';
      depth--;
      continue;
    }
    if ((char === '+' || char === '*' || char === '?' || char === '}') && next === '+') {
      return 'Possessive quantifiers (*+, ++, ?+) are not supported by RE2.';
    }
  }
  if (inClass) return 'A character class [ is not closed with ].';
  if (depth > 0) return 'A group ( is not closed with ).';
  return null;
}
