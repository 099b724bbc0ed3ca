import { describe, expect, it } from 'vitest';
import { deleteRefusal, runRefusal } from './pipeline-writes.ts';

const caller = (role: number, options: { isAdmin?: boolean; canWrite?: boolean } = {}) => ({ role, isAdmin: options.isAdmin ?? false, canWrite: options.canWrite ?? true });

describe('pipeline permissions (the platform roles)', () => {
  it('lets Developers and up run, retry and cancel; Reporters only read', () => {
    expect(runRefusal(caller(30))).toBeNull();
    expect(runRefusal(caller(40))).toBeNull();
    expect(runRefusal(caller(20))).toMatch(/^Only Developers, Maintainers and Owners/);
    expect(runRefusal(caller(0, { isAdmin: true }))).toBeNull();
  });

  it('lets only Owners (and administrators) delete', () => {
    expect(deleteRefusal(caller(50))).toBeNull();
    expect(deleteRefusal(caller(40))).toBe('Only Owners of this project can delete pipelines.');
    expect(deleteRefusal(caller(0, { isAdmin: true }))).toBeNull();
  });

  it('refuses every write to a read-only token', () => {
    expect(runRefusal(caller(50, { canWrite: false }))).toMatch(/read-only/);
    expect(deleteRefusal(caller(50, { canWrite: false, isAdmin: true }))).toMatch(/read-only/);
  });
});
