import { describe, expect, it } from 'vitest';
import { commentRefusal, updateRefusal, type MergeRequestCaller } from './merge-request-overview-access.ts';

const caller = (values: Partial<MergeRequestCaller>): MergeRequestCaller => ({ userId: 7, isAdmin: false, canWrite: true, role: 0, roleKnown: true, ...values });

describe('merge request access', () => {
  it('lets the author, Developers and up and administrators change the request', () => {
    expect(updateRefusal(caller({ role: 30 }), 1)).toBeNull();
    expect(updateRefusal(caller({ role: 0 }), 7)).toBeNull();
    expect(updateRefusal(caller({ isAdmin: true }), 1)).toBeNull();
    expect(updateRefusal(caller({ role: 20 }), 1)).toMatch(/^Only the author and Developers/);
    expect(updateRefusal(caller({ role: 50, canWrite: false }), 1)).toMatch(/read-only/);
  });

  it('refuses comments on a locked discussion to non-members only', () => {
    expect(commentRefusal(caller({ role: 0 }), false)).toBeNull();
    expect(commentRefusal(caller({ role: 0 }), true)).toMatch(/locked/);
    expect(commentRefusal(caller({ role: 15 }), true)).toBeNull();
    expect(commentRefusal(caller({ canWrite: false }), false)).toMatch(/read-only/);
  });
});
