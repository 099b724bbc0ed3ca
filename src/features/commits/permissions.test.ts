import { describe, expect, it } from 'vitest';
import { pickAccess, roleIn } from './permissions.ts';

describe('who may cherry-pick or revert', () => {
  it('offers it to Developers and up, and to administrators whatever their role', () => {
    expect(pickAccess({ isAdmin: false, canWrite: true, role: 30 }).allowed).toBe(true);
    expect(pickAccess({ isAdmin: false, canWrite: true, role: 50 }).allowed).toBe(true);
    expect(pickAccess({ isAdmin: true, canWrite: true, role: 0 }).allowed).toBe(true);
  });

  it('says why not to Reporters, Guests, outsiders and read-only tokens', () => {
    expect(pickAccess({ isAdmin: false, canWrite: true, role: 20 })).toEqual({ allowed: false, reason: expect.stringContaining('only Developers, Maintainers and Owners') });
    expect(pickAccess({ isAdmin: false, canWrite: true, role: 0 }).allowed).toBe(false);
    expect(pickAccess({ isAdmin: true, canWrite: false, role: 50 })).toEqual({ allowed: false, reason: expect.stringContaining('read-only') });
  });

  it('reads the higher of the project and group roles', () => {
    expect(roleIn({ project_access: { access_level: 20 }, group_access: { access_level: 40 } })).toBe(40);
    expect(roleIn({ project_access: null, group_access: null })).toBe(0);
    expect(roleIn(undefined)).toBe(0);
  });
});
