import { describe, expect, it } from 'vitest';
import { fileEditAccess, type FileEditCaller } from './permissions.ts';

const developer: FileEditCaller = { isAdmin: false, canWrite: true, role: 30 };
const main = { kind: 'branch', name: 'main', protected: true } as const;
const topic = { kind: 'branch', name: 'topic', protected: false } as const;

describe('who may change files', () => {
  it('lets Developers push to unprotected branches and branch off protected ones', () => {
    expect(fileEditAccess(developer, topic)).toEqual({ canEdit: true, canPushToRef: true, reason: null });
    expect(fileEditAccess(developer, main)).toMatchObject({ canEdit: true, canPushToRef: false, reason: expect.stringContaining('protected') });
  });
  it('lets Maintainers push to protected branches, and the branch’s own can_push wins', () => {
    expect(fileEditAccess({ ...developer, role: 40 }, main).canPushToRef).toBe(true);
    expect(fileEditAccess({ ...developer, role: 40 }, { ...main, canPush: false }).canPushToRef).toBe(false);
    expect(fileEditAccess(developer, { ...main, canPush: true }).canPushToRef).toBe(true);
  });
  it('refuses Reporters, read-only tokens and refs that are not branches, saying why', () => {
    expect(fileEditAccess({ ...developer, role: 20 }, topic)).toMatchObject({ canEdit: false, reason: expect.stringContaining('Developers') });
    expect(fileEditAccess({ ...developer, canWrite: false, isAdmin: true }, topic)).toMatchObject({ canEdit: false, reason: expect.stringContaining('read-only') });
    expect(fileEditAccess({ ...developer, isAdmin: true }, { kind: 'other', name: 'v1.0.0' })).toMatchObject({ canEdit: false, reason: expect.stringContaining('not a branch') });
  });
  it('says a ref that does not exist does not, instead of calling it a tag or a commit', () => {
    const access = fileEditAccess({ ...developer, isAdmin: true }, { kind: 'missing', name: 'no-such-ref' });
    expect(access).toMatchObject({ canEdit: false, reason: '“no-such-ref” is no branch, tag or commit of this project: switch to one that exists.' });
  });
  it('lets administrators change any branch whatever their role', () => {
    expect(fileEditAccess({ isAdmin: true, canWrite: true, role: 0 }, main)).toEqual({ canEdit: true, canPushToRef: true, reason: null });
  });
});
