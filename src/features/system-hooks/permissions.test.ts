import { describe, expect, it } from 'vitest';
import { systemHooksAccess } from './permissions.ts';

describe('systemHooksAccess', () => {
  it('is for administrators only; a read-only token views', () => {
    expect(systemHooksAccess({ isAdmin: false, canWrite: true })).toMatchObject({ canView: false, canManage: false, reason: expect.stringMatching(/administrators only/) });
    expect(systemHooksAccess(undefined).canView).toBe(false);
    expect(systemHooksAccess({ isAdmin: true, canWrite: false })).toMatchObject({ canView: true, canManage: false, reason: expect.stringMatching(/read-only/) });
    expect(systemHooksAccess({ isAdmin: true, canWrite: true })).toEqual({ canView: true, canManage: true, reason: null });
  });
});
