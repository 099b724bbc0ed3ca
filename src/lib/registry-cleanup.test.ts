import { describe, expect, it } from 'vitest';
import { compileCleanupRules, hasTopLevelAlternation, parseOlderThan, planCleanup, type CleanupRules, type CleanupTag } from './registry-cleanup.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

const TAGS: CleanupTag[] = [
  { name: 'latest', createdAt: daysAgo(0) },
  { name: 'v1.0.0', createdAt: daysAgo(400), protected: true },
  { name: 'v1.1.0', createdAt: daysAgo(300) },
  { name: 'v1.2.0-rc.1', createdAt: daysAgo(200) },
  { name: 'main-aaaaaaa', createdAt: daysAgo(30) },
  { name: 'main-bbbbbbb', createdAt: daysAgo(10) },
  { name: 'main-ccccccc', createdAt: daysAgo(2) },
  { name: 'feature-x', createdAt: null },
];

function plan(rules: CleanupRules, tags: CleanupTag[] = TAGS) {
  const compiled = compileCleanupRules(rules);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return Object.fromEntries(planCleanup(tags, compiled.rules, NOW).map((decision) => [decision.name, decision.reason]));
}

describe('planCleanup', () => {
  it('deletes what the delete expression matches as a whole name, never latest or protected tags', () => {
    expect(plan({ nameRegexDelete: '.*' })).toEqual({
      latest: 'latest',
      'v1.0.0': 'protected',
      'v1.1.0': 'deleted',
      'v1.2.0-rc.1': 'deleted',
      'main-aaaaaaa': 'deleted',
      'main-bbbbbbb': 'deleted',
      'main-ccccccc': 'deleted',
      'feature-x': 'deleted',
    });
    // anchored: "main" alone matches no tag, "v1\.1" is not a prefix match
    expect(Object.values(plan({ nameRegexDelete: 'main' })).filter((reason) => reason === 'deleted')).toEqual([]);
    expect(plan({ nameRegexDelete: 'v1\\.1' })['v1.1.0']).toBe('not-matched');
  });

  it('lets the keep expression win over the delete expression', () => {
    const reasons = plan({ nameRegexDelete: '.*', nameRegexKeep: 'v.*' });
    expect(reasons['v1.1.0']).toBe('kept-by-regex');
    expect(reasons['v1.2.0-rc.1']).toBe('kept-by-regex');
    expect(reasons['main-aaaaaaa']).toBe('deleted');
  });

  it('keeps the newest N of the selected tags only, undated tags counting as new', () => {
    const reasons = plan({ nameRegexDelete: 'main-.*|feature-.*', keepN: 2 });
    expect(reasons['feature-x']).toBe('newest-n');
    expect(reasons['main-ccccccc']).toBe('newest-n');
    expect(reasons['main-bbbbbbb']).toBe('deleted');
    expect(reasons['main-aaaaaaa']).toBe('deleted');
    // v1.1.0 is older but not selected, so it does not take a place among the newest
    expect(reasons['v1.1.0']).toBe('not-matched');
  });

  it('deletes only tags older than the age, and never undated ones for an age rule', () => {
    const reasons = plan({ nameRegexDelete: '.*', olderThan: '7d' });
    expect(reasons['main-ccccccc']).toBe('younger');
    expect(reasons['main-bbbbbbb']).toBe('deleted');
    expect(reasons['feature-x']).toBe('younger');
  });

  it('combines every rule in the platform order', () => {
    expect(plan({ nameRegexDelete: '.*', nameRegexKeep: '.*-rc\\.\\d+', keepN: 1, olderThan: '1month' })).toEqual({
      latest: 'latest',
      'v1.0.0': 'protected',
      'v1.1.0': 'deleted',
      'v1.2.0-rc.1': 'kept-by-regex',
      'main-aaaaaaa': 'younger',
      'main-bbbbbbb': 'younger',
      'main-ccccccc': 'younger',
      'feature-x': 'newest-n',
    });
  });

  it('anchors like the platform: a top-level | leaves the first branch open at the end and the last at the start', () => {
    const reasons = plan({ nameRegexDelete: 'v1|rc\\.1' });
    expect(reasons['v1.1.0']).toBe('deleted');
    expect(reasons['v1.2.0-rc.1']).toBe('deleted');
    expect(compileCleanupRules({ nameRegexDelete: 'v1|rc' })).toMatchObject({ ok: true, rules: { warnings: { nameRegexDelete: expect.stringContaining('Wrap it') } } });
    expect(compileCleanupRules({ nameRegexDelete: '(v1|rc)' })).toMatchObject({ ok: true, rules: { warnings: {} } });
  });
});

describe('compileCleanupRules', () => {
  it('reports each problem on its field', () => {
    const compiled = compileCleanupRules({ nameRegexDelete: '(abc', nameRegexKeep: '[z-a]', keepN: -1, olderThan: 'soon' });
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.errors.nameRegexDelete).toMatch(/missing closing \)/);
    expect(compiled.errors.nameRegexKeep).toMatch(/invalid character class range/);
    expect(compiled.errors.keepN).toMatch(/whole number/);
    expect(compiled.errors.olderThan).toMatch(/Not a duration/);
  });

  it('requires a delete expression and refuses what RE2 has no syntax for', () => {
    expect(compileCleanupRules({})).toMatchObject({ ok: false, errors: { nameRegexDelete: expect.stringContaining('required') } });
    // look-ahead is Perl, not RE2
    expect(compileCleanupRules({ nameRegexDelete: '(?!latest).*' })).toMatchObject({ ok: false });
  });
});

describe('parseOlderThan', () => {
  it('reads the durations the platform accepts', () => {
    expect(parseOlderThan('1h')).toBe(3_600_000);
    expect(parseOlderThan('7d')).toBe(7 * DAY);
    expect(parseOlderThan('2 weeks')).toBe(14 * DAY);
    expect(parseOlderThan('1month')).toBe(30 * DAY);
    expect(parseOlderThan('1 day and 12 hours')).toBe(1.5 * DAY);
    expect(parseOlderThan('90')).toBe(90_000);
    expect(parseOlderThan('')).toBeNull();
    expect(parseOlderThan('soon')).toBeNull();
    expect(parseOlderThan('7 fortnights')).toBeNull();
  });
});

describe('hasTopLevelAlternation', () => {
  it('ignores | inside groups, classes and escapes', () => {
    expect(hasTopLevelAlternation('a|b')).toBe(true);
    expect(hasTopLevelAlternation('(a|b)')).toBe(false);
    expect(hasTopLevelAlternation('[|]')).toBe(false);
    expect(hasTopLevelAlternation('a\\|b')).toBe(false);
  });
});
