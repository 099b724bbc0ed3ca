import { describe, expect, it } from 'vitest';
import { READ_ONLY_TOKEN } from '../../components/use-project-caller.ts';
import { deleteRefusal, runRefusal } from './permissions.ts';

describe('job permissions', () => {
  const caller = (role: number, extra: { isAdmin?: boolean; canWrite?: boolean } = {}) => ({ isAdmin: false, canWrite: true, role, ...extra });

  it('lets Developers and up run jobs, and says why others may not', () => {
    expect(runRefusal(caller(30))).toBeNull();
    expect(runRefusal(caller(20))).toMatch(/Developers/);
    expect(runRefusal(caller(0, { isAdmin: true }))).toBeNull();
    expect(runRefusal(caller(50, { canWrite: false }))).toBe(READ_ONLY_TOKEN);
  });

  it('lets Owners and administrators delete pipelines', () => {
    expect(deleteRefusal(caller(50))).toBeNull();
    expect(deleteRefusal(caller(40))).toMatch(/Owners/);
    expect(deleteRefusal(caller(10, { isAdmin: true }))).toBeNull();
  });
});
