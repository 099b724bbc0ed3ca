import { describe, expect, it } from 'vitest';
import { INVALID_EXPRESSION, matchesRule } from './expression.ts';
import { parseDuration } from './duration.ts';
import { seededRandom } from './seeded-random.ts';

const VARS = { BRANCH: 'main', EMPTY: '', TAG: 'v1.2.3', PATTERN: '/^v\\d/', PLAIN: 'ma', MIXED: 'Feature/ABC' };

function value(expression: string): boolean {
  const result = matchesRule(expression, VARS);
  if (!result.ok) throw new Error(`${expression}: ${result.error}`);
  return result.value;
}

describe('rules:if expressions', () => {
  it.each<[string, boolean]>([
    ['$BRANCH', true],
    ['$EMPTY', false],
    ['$UNDEFINED', false],
    ['${BRANCH}', true],
    ['$BRANCH == "main"', true],
    ["$BRANCH == 'main'", true],
    ['$BRANCH != "main"', false],
    ['$BRANCH == $BRANCH', true],
    ['$UNDEFINED == null', true],
    ['$EMPTY == null', false],
    ['$EMPTY == ""', true],
    ['$BRANCH != null', true],
    ['$TAG =~ /^v\\d+\\.\\d+/', true],
    ['$TAG !~ /^v\\d+\\.\\d+/', false],
    ['$MIXED =~ /^feature/i', true],
    ['$MIXED =~ /^feature/', false],
    ['$UNDEFINED =~ /.*/', false],
    ['$UNDEFINED !~ /.*/', true],
    ['$TAG =~ $PATTERN', true],
    ['$BRANCH =~ $PLAIN', true], // a plain value matches as an escaped substring, as on the platform
    ['$BRANCH == "main" && $TAG', true],
    ['$BRANCH == "x" || $TAG == "v1.2.3"', true],
    ['$BRANCH == "x" || $TAG == "y" && $BRANCH', false],
    ['$BRANCH || $UNDEFINED && $EMPTY', true],
    ['($BRANCH || $UNDEFINED) && $EMPTY', false],
    ['(($BRANCH == "main"))', true],
    ['"literal"', true],
    ['null', false],
    ['$PATH_TO =~ /a\\/b/', false],
  ])('%s -> %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it.each(['', '$', '==', '$A ==', '$A == "x', '($A', '$A)', '$A = "x"', '$A =~ "x"', '$A =~ /(/', '$A && ', 'main', '$A $B', '/x/z'])(
    'refuses %j',
    (expression) => {
      expect(matchesRule(expression, VARS)).toEqual({ ok: false, error: INVALID_EXPRESSION });
    },
  );

  it('never throws on random input, and answers a boolean or the platform message', () => {
    const alphabet = ['$A', '$B', '"x"', "'y'", '/a.*/', '/[/', 'null', '==', '!=', '=~', '!~', '&&', '||', '(', ')', ' ', '$', '"', '/', 'z', '\\'];
    const random = seededRandom(42);
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 8);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join(random() < 0.5 ? ' ' : '');
      const result = matchesRule(text, { A: 'abc', B: '' });
      if (result.ok) expect(typeof result.value).toBe('boolean');
      else expect(result.error).toBe(INVALID_EXPRESSION);
    }
  });
});

describe('parseDuration', () => {
  it.each<[unknown, number | null]>([
    ['30 seconds', 30],
    ['1 min', 60],
    ['1 hour', 3600],
    ['1h 30m', 5400],
    ['1h30m', 5400],
    ['10 minutes', 600],
    ['2 days and 3 hours', 183600],
    ['1 week', 604800],
    ['90', 90],
    [45, 45],
    ['soon', null],
    ['', null],
    ['5 parsecs', null],
    [null, null],
  ])('%j -> %s', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });
});
