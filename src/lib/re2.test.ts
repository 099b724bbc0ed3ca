import { describe, expect, it } from 'vitest';
import { re2Problem } from './re2.ts';

describe('re2Problem', () => {
  it('accepts RE2 syntax, including what JavaScript lacks', async () => {
    for (const pattern of ['^feature/.*$', '(?P<kind>fix|feat)/', '\\Arelease/\\d+\\z', '[[:alpha:]]+-[0-9]', '(?i)MAIN', 'x(?i:main)', '\\Q(literal)\\E', '[]a]', 'a{2,3}', '(?:x|y)+', '\\(']) {
      expect(await re2Problem(pattern), pattern).toBeNull();
    }
  });

  it('refuses what RE2 has not, with the engine reason', async () => {
    expect(await re2Problem('(a)\\1')).toMatch(/invalid escape sequence: `\\1`/);
    expect(await re2Problem('^(?!main$)')).toMatch(/invalid or unsupported Perl syntax: `\(\?!`/);
    expect(await re2Problem('(?<=x)y')).toMatch(/invalid named capture/);
    expect(await re2Problem('(?>a+)')).toMatch(/invalid or unsupported Perl syntax/);
    expect(await re2Problem('a++')).toMatch(/invalid nested repetition operator/);
    expect(await re2Problem('x\\Z')).toMatch(/invalid escape sequence/);
  });

  it('refuses what no engine takes, and ignores syntax inside \\Q…\\E and classes', async () => {
    expect(await re2Problem('(feature')).toMatch(/missing closing \)/);
    expect(await re2Problem('feature)')).toMatch(/unexpected \)/);
    expect(await re2Problem('[abc')).toMatch(/missing closing \]/);
    expect(await re2Problem('[[:nope:]]')).toMatch(/invalid character class range/);
    expect(await re2Problem('abc\\')).toMatch(/trailing backslash/);
    expect(await re2Problem('\\Q(?=x)\\E')).toBeNull();
    expect(await re2Problem('[(?=]')).toBeNull();
  });
});
