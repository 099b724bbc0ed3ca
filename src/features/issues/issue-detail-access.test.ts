import { describe, expect, it } from 'vitest';
import { commentRefusal, deleteRefusal, editRefusal, mayWriteInternal, type IssueCaller } from './issue-detail-access.ts';
import { mayChangeNote } from '../../components/use-project-caller.ts';

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

  it('internal notes from Reporter up; delete for Owners and administrators', () => {
    expect(mayWriteInternal(caller({ role: 10 }))).toBe(false);
    expect(mayWriteInternal(caller({ role: 20 }))).toBe(true);
    expect(deleteRefusal(caller({ role: 40 }))).toMatch(/Only Owners/);
    expect(deleteRefusal(caller({ role: 50 }))).toBeNull();
    expect(deleteRefusal(caller({ isAdmin: true }))).toBeNull();
  });

  it('a comment is changed by its author, the project’s Maintainers and Owners and administrators (admin_note); never by a read-only token', () => {
    expect(mayChangeNote(caller({}), 5)).toBe(true);
    expect(mayChangeNote(caller({ role: 30 }), 9)).toBe(false);
    expect(mayChangeNote(caller({ role: 40 }), 9)).toBe(true);
    expect(mayChangeNote(caller({ isAdmin: true }), 9)).toBe(true);
    expect(mayChangeNote(caller({ canWrite: false }), 5)).toBe(false);
  });
});
