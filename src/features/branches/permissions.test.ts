import { describe, expect, it } from 'vitest';
import { deleteRefusal, protectRefusal, pushRefusal } from './permissions.ts';

const plain = { default: false, protected: false };
const guarded = { default: false, protected: true };

describe('what the caller may do with branches', () => {
  it('lets Developers create and delete unprotected branches, not protected ones', () => {
    const developer = { isAdmin: false, canWrite: true, role: 30 };
    expect(pushRefusal(developer)).toBeNull();
    expect(deleteRefusal(developer, plain)).toBeNull();
    expect(deleteRefusal(developer, guarded)).toMatch(/protected/);
    expect(protectRefusal(developer)).toMatch(/Maintainers/);
  });

  it('lets Maintainers and administrators do everything but delete the default branch', () => {
    for (const caller of [{ isAdmin: false, canWrite: true, role: 40 }, { isAdmin: true, canWrite: true, role: 0 }]) {
      expect(protectRefusal(caller)).toBeNull();
      expect(deleteRefusal(caller, guarded)).toBeNull();
      expect(deleteRefusal(caller, { default: true, protected: true })).toMatch(/default branch/);
    }
  });

  it('refuses Reporters and read-only tokens', () => {
    expect(pushRefusal({ isAdmin: false, canWrite: true, role: 20 })).toMatch(/Developers/);
    expect(pushRefusal({ isAdmin: true, canWrite: false, role: 0 })).toMatch(/read-only/);
    expect(deleteRefusal({ isAdmin: false, canWrite: false, role: 40 }, plain)).toMatch(/read-only/);
  });
});
