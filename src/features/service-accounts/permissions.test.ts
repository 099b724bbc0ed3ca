import { describe, expect, it } from 'vitest';
import { serviceAccountAccess } from './permissions.ts';

const owner = { isAdmin: false, canWrite: true, role: 50 };
const topLevel = { parentId: null };

describe('serviceAccountAccess', () => {
  it('lets Owners of a top-level group and administrators manage its accounts', () => {
    expect(serviceAccountAccess({ group: 3 }, owner, topLevel)).toEqual({ canView: true, canManage: true, reason: null });
    expect(serviceAccountAccess({ group: 3 }, { isAdmin: true, canWrite: true, role: 0 }, topLevel)).toEqual({ canView: true, canManage: true, reason: null });
  });

  it('shows Maintainers and below nothing, and says why', () => {
    const access = serviceAccountAccess({ group: 3 }, { ...owner, role: 40 }, topLevel);
    expect(access).toMatchObject({ canView: false, canManage: false });
    expect(access.reason).toMatch(/Only Owners of this group and administrators/);
  });

  it('explains that subgroups have none, naming the top-level group', () => {
    const access = serviceAccountAccess({ group: 9 }, owner, { parentId: 3, topLevelPath: 'acme' });
    expect(access).toMatchObject({ canView: false, canManage: false });
    expect(access.reason).toBe('Service accounts belong to top-level groups, and this is a subgroup. Those of this group’s hierarchy are managed in the top-level group “acme”.');
  });

  it('keeps the instance list for administrators', () => {
    expect(serviceAccountAccess('instance', { ...owner, isAdmin: false }).canView).toBe(false);
    expect(serviceAccountAccess('instance', { isAdmin: true, canWrite: true, role: 0 })).toEqual({ canView: true, canManage: true, reason: null });
  });

  it('lets a read-only token look but not change', () => {
    const access = serviceAccountAccess('instance', { isAdmin: true, canWrite: false, role: 0 });
    expect(access).toMatchObject({ canView: true, canManage: false });
    expect(access.reason).toMatch(/read-only/);
  });
});
