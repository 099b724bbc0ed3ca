import { describe, expect, it } from 'vitest';
import { commentRefusal, deleteRefusal, editRefusal, mayChangeNote, mayWriteInternal, type IssueCaller } from './issue-detail-access.ts';

const caller = (changes: Partial<IssueCaller>): IssueCaller => ({ userId: 5, isAdmin: false, canWrite: true, role: 0, roleKnown: true, ...changes });

describe('who may do what on an issue', () => {
  it('edits: Reporters and up, the author, administrators; never a read-only token', () => {
    expect(editRefusal(caller({ role: 20 }), 9)).toBeNull();
    expect(editRefusal(caller({ role: 10 }), 5)).toBeNull();
    expect(editRefusal(caller({ role: 10 }), 9)).toMatch(/Only the author and Reporters/);
    expect(editRefusal(caller({ isAdmin: true }), 9)).toBeNull();
    expect(editRefusal(caller({ role: 50, canWrite: false }), 9)).toMatch(/read-only/);
  });

  it('comments: anyone unless locked, then members from Reporter up', () => {
    expect(commentRefusal(caller({ role: 0 }), false)).toBeNull();
    expect(commentRefusal(caller({ role: 10 }), true)).toMatch(/locked/);
    expect(commentRefusal(caller({ role: 20 }), true)).toBeNull();
  });

  it('internal notes from Reporter up; delete for Owners and administrators; notes changed by their author', () => {
    expect(mayWriteInternal(caller({ role: 10 }))).toBe(false);
    expect(mayWriteInternal(caller({ role: 20 }))).toBe(true);
    expect(deleteRefusal(caller({ role: 40 }))).toMatch(/Only Owners/);
    expect(deleteRefusal(caller({ role: 50 }))).toBeNull();
    expect(deleteRefusal(caller({ isAdmin: true }))).toBeNull();
    expect(mayChangeNote(caller({}), 5)).toBe(true);
    expect(mayChangeNote(caller({ role: 50 }), 9)).toBe(false);
    expect(mayChangeNote(caller({ isAdmin: true }), 9)).toBe(true);
  });
});
