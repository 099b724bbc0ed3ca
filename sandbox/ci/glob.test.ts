import { describe, expect, it } from 'vitest';
import { globRegExp, matchPaths } from './glob.ts';

describe('globRegExp', () => {
  it.each<[string, string, boolean]>([
    ['*.xml', 'report.xml', true],
    ['*.xml', 'dir/report.xml', false],
    ['**/*.xml', 'report.xml', true],
    ['**/*.xml', 'a/b/report.xml', true],
    ['reports/**', 'reports/a/b.txt', true],
    ['rep?rt.xml', 'report.xml', true],
    ['{a,b}/x.md', 'b/x.md', true],
    ['{a,b}/x.md', 'c/x.md', false],
    ['[ab].txt', 'a.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['./docs/*.md', 'docs/.hidden.md', true],
    ['file(1).txt', 'file(1).txt', true],
    ['[unclosed', '[unclosed', true],
  ])('%s ~ %s -> %s', (pattern, path, expected) => {
    expect(globRegExp(pattern).test(path)).toBe(expected);
  });

  it('lists matches sorted', () => {
    expect(matchPaths('src/**/*.ts', ['src/b.ts', 'src/a/c.ts', 'lib/d.ts'])).toEqual(['src/a/c.ts', 'src/b.ts']);
  });
});
