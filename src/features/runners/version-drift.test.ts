import { describe, expect, it } from 'vitest';
import { driftLabel, majorMinor, newestMajorMinor, versionDrift } from './version-drift.ts';

describe('majorMinor', () => {
  it('reads release, prefixed and suffixed versions', () => {
    expect(majorMinor('17.8.1')).toEqual([17, 8]);
    expect(majorMinor('v16.11.0-rc1')).toEqual([16, 11]);
    expect(majorMinor('17.8.0-ee')).toEqual([17, 8]);
  });

  it('gives null for what it cannot read', () => {
    expect(majorMinor(null)).toBeNull();
    expect(majorMinor('')).toBeNull();
    expect(majorMinor('dev')).toBeNull();
    expect(majorMinor('17')).toBeNull();
  });
});

describe('newestMajorMinor', () => {
  it('compares numerically, not as text', () => {
    expect(newestMajorMinor(['16.9.0', '16.11.4', null, '16.10.0'])).toEqual([16, 11]);
  });

  it('lets the instance version win when it is newer than the fleet', () => {
    expect(newestMajorMinor(['17.8.0-ee', '17.7.2', '17.6.1'])).toEqual([17, 8]);
  });

  it('is null with nothing readable', () => {
    expect(newestMajorMinor([null, undefined, 'dev'])).toBeNull();
  });
});

describe('versionDrift', () => {
  const reference: [number, number] = [17, 8];

  it('ignores patch releases', () => {
    expect(versionDrift('17.8.0', reference)).toEqual({ kind: 'current' });
    expect(versionDrift('17.8.9', reference)).toEqual({ kind: 'current' });
  });

  it('counts minors behind within the same major', () => {
    expect(versionDrift('17.6.1', reference)).toEqual({ kind: 'minor', behind: 2 });
    expect(driftLabel(versionDrift('17.7.2', reference), reference)).toBe('1 minor version behind 17.8');
  });

  it('puts an older major above any minor difference', () => {
    expect(versionDrift('16.11.4', reference)).toEqual({ kind: 'major', behind: 1 });
    expect(driftLabel(versionDrift('15.1.0', reference), reference)).toBe('2 major versions behind 17.8');
  });

  it('does not flag runners ahead of the reference, or unknown versions', () => {
    expect(versionDrift('18.0.0', reference)).toEqual({ kind: 'current' });
    expect(versionDrift(null, reference)).toEqual({ kind: 'unknown' });
    expect(versionDrift('17.1.0', null)).toEqual({ kind: 'unknown' });
    expect(driftLabel({ kind: 'unknown' }, reference)).toBeNull();
  });
});
