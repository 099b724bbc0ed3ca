import { describe, expect, it } from 'vitest';
import { storageMovesAccess } from './permissions.ts';

describe('storageMovesAccess', () => {
  it('is for administrators only; a read-only token follows moves without scheduling', () => {
    expect(storageMovesAccess({ isAdmin: false, canWrite: true })).toMatchObject({ canView: false, canManage: false, reason: expect.stringMatching(/administrators only/) });
    expect(storageMovesAccess(undefined).canView).toBe(false);
    expect(storageMovesAccess({ isAdmin: true, canWrite: false })).toMatchObject({ canView: true, canManage: false, reason: expect.stringMatching(/read-only/) });
    expect(storageMovesAccess({ isAdmin: true, canWrite: true })).toEqual({ canView: true, canManage: true, reason: null });
  });
});
