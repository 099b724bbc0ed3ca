import { describe, expect, it } from 'vitest';
import { re2Problem } from './re2.ts';

describe('RE2 check before sending a branch regex', () => {
  it('accepts RE2 syntax, including what JavaScript lacks', () => {
    for (const pattern of ['^feature/.*$', '(?P<kind>fix|feat)/', '\\Arelease/\\d+\\z', '[[:alpha:]]+-[0-9]', '(?i)MAIN', '\\Q(literal)\\E', '[]a]', '[^]]', 'a{2,3}', '(?:x|y)+', '\\(']) {
      expect(re2Problem(pattern), pattern).toBeNull();
    }
  });

  it('refuses backreferences and lookarounds with a reason', () => {
    expect(re2Problem('(a)\\1')).toMatch(/Backreferences/);
    expect(re2Problem('(?<n>a)\\k<n>')).toMatch(/Backreferences/);
    expect(re2Problem('^(?!main$)')).toMatch(/Lookahead and lookbehind/);
    expect(re2Problem('(?=feat)')).toMatch(/Lookahead/);
    expect(re2Problem('(?<=x)y')).toMatch(/lookbehind/);
    expect(re2Problem('(?<!x)y')).toMatch(/lookbehind/);
  });

  it('refuses atomic groups, possessive quantifiers and \\Z', () => {
    expect(re2Problem('(?>a+)')).toMatch(/Atomic/);
    expect(re2Problem('a++')).toMatch(/Possessive/);
    expect(re2Problem('x\\Z')).toMatch(/\\Z is not supported/);
  });

  it('refuses what no engine takes, and ignores syntax inside \\Q…\\E and classes', () => {
    expect(re2Problem('(feature')).toMatch(/not closed/);
    expect(re2Problem('feature)')).toMatch(/without its/);
    expect(re2Problem('[abc')).toMatch(/not closed/);
    expect(re2Problem('abc\\')).toMatch(/lone backslash/);
    expect(re2Problem('\\Q(?=x)\\E')).toBeNull();
    expect(re2Problem('[(?=]')).toBeNull();
  });
});
