import { describe, expect, it } from 'vitest';
import { canWriteRunners, fleetAccess, runnerAssignRefusal, runnerChangeRefusal, runnerDeleteRefusal, runnerDetailRefusal, runnerJobsRefusal, runnerUnassignRefusal } from './permissions.ts';

const admin = { isAdmin: true, canWrite: true, role: 0 };
const runner = (runnerType: string, projects = 1) => ({ runner_type: runnerType, projects: Array.from({ length: projects }, (_, id) => ({ id })) });
const owner = { isAdmin: false, canWrite: true, role: 50 };
const maintainer = { isAdmin: false, canWrite: true, role: 40 };

describe('fleetAccess', () => {
  it('keeps the instance fleet for administrators', () => {
    expect(fleetAccess('instance', admin).canView).toBe(true);
    expect(fleetAccess('instance', owner)).toMatchObject({ canView: false, reason: expect.stringMatching(/administrators only/) });
  });

  it('wants Owner on a group and Maintainer on a project', () => {
    expect(fleetAccess({ group: 1 }, owner).canView).toBe(true);
    expect(fleetAccess({ group: 1 }, maintainer).canView).toBe(false);
    expect(fleetAccess({ project: 1 }, maintainer).canView).toBe(true);
    expect(fleetAccess({ project: 1 }, { ...maintainer, role: 30 }).canView).toBe(false);
  });
});

describe('who may change runners', () => {
  it('accepts manage_runner in place of api', () => {
    expect(canWriteRunners({ canWrite: false, scopes: ['read_api', 'manage_runner'] })).toBe(true);
    expect(canWriteRunners({ canWrite: false, scopes: ['read_api'] })).toBe(false);
  });

  it('leaves instance runners to administrators and group runners in a project list to the group', () => {
    expect(runnerChangeRefusal('instance', admin, 'instance_type')).toBeNull();
    expect(runnerChangeRefusal({ group: 1 }, owner, 'instance_type')).toMatch(/administrators/);
    expect(runnerChangeRefusal({ group: 1 }, owner, 'group_type')).toBeNull();
    expect(runnerChangeRefusal({ project: 1 }, maintainer, 'group_type')).toMatch(/group’s Owners/);
    expect(runnerChangeRefusal({ project: 1 }, maintainer, 'project_type')).toBeNull();
    expect(runnerChangeRefusal({ project: 1 }, { ...maintainer, canWrite: false }, 'project_type')).toMatch(/read-only/);
  });

  it('checks the role in the runner’s own group or project on its page', () => {
    expect(runnerDetailRefusal({ ...owner, ownerRole: 50 }, runner('group_type'))).toBeNull();
    expect(runnerDetailRefusal({ ...owner, ownerRole: 40 }, runner('group_type'))).toMatch(/Owners/);
    expect(runnerDetailRefusal({ ...owner, ownerRole: 40 }, runner('project_type'))).toBeNull();
    expect(runnerDetailRefusal({ ...owner, ownerRole: 30 }, runner('project_type'))).toBe('Only Maintainers of the runner’s project can change it.');
    expect(runnerDetailRefusal({ ...owner, ownerRole: 30 }, runner('project_type', 2))).toBe('Only Maintainers of one of the runner’s projects can change it.');
    expect(runnerDetailRefusal({ ...admin, ownerRole: 0 }, runner('instance_type'))).toBeNull();
  });
});

describe('runnerJobsRefusal', () => {
  it('shows the jobs of the runners one owns, as the platform lists them', () => {
    expect(runnerJobsRefusal({ isAdmin: true, ownerRole: 0 }, runner('instance_type'))).toBeNull();
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 0 }, runner('instance_type'))).toMatch(/administrators only/);
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 50 }, runner('group_type'))).toBeNull();
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 40 }, runner('group_type'))).toMatch(/Owners/);
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 40 }, runner('project_type'))).toBeNull();
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 30 }, runner('project_type'))).toMatch(/Maintainers/);
  });

  it('a project runner of several projects: a Maintainer of any of them owns it (the highest role is passed)', () => {
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 40 }, runner('project_type', 2))).toBeNull();
    expect(runnerJobsRefusal({ isAdmin: false, ownerRole: 30 }, runner('project_type', 2))).toBe('Only Maintainers of one of the runner’s projects can see its jobs.');
  });
});

describe('runnerAssignRefusal and runnerUnassignRefusal', () => {
  const projectRunner = (projects: number, locked = false) => ({ ...runner('project_type', projects), locked });

  it('lets a project runner’s owners assign it to more projects, unless it is locked; administrators always', () => {
    expect(runnerAssignRefusal({ isAdmin: false, canWrite: true, ownerRole: 40 }, projectRunner(1))).toBeNull();
    expect(runnerAssignRefusal({ isAdmin: false, canWrite: true, ownerRole: 30 }, projectRunner(1))).toBe('Only Maintainers of the runner’s project can assign it to more projects.');
    expect(runnerAssignRefusal({ isAdmin: false, canWrite: true, ownerRole: 40 }, projectRunner(1, true))).toMatch(/locked/);
    expect(runnerAssignRefusal({ isAdmin: true, canWrite: true, ownerRole: 0 }, projectRunner(1, true))).toBeNull();
    expect(runnerAssignRefusal({ isAdmin: true, canWrite: false, ownerRole: 0 }, projectRunner(1))).toMatch(/read-only/);
    expect(runnerAssignRefusal({ isAdmin: true, canWrite: true, ownerRole: 0 }, { ...runner('group_type'), locked: false })).not.toBeNull();
  });

  it('unassigns from a project but its last, and (but for administrators) not from its first or while locked', () => {
    const maintainer = { isAdmin: false, canWrite: true, roleInProject: 40 };
    expect(runnerUnassignRefusal(maintainer, projectRunner(2), 1)).toBeNull();
    expect(runnerUnassignRefusal(maintainer, projectRunner(2), 0)).toMatch(/made for/);
    expect(runnerUnassignRefusal(maintainer, projectRunner(1), 0)).toMatch(/last project/);
    expect(runnerUnassignRefusal(maintainer, projectRunner(2, true), 1)).toMatch(/locked/);
    expect(runnerUnassignRefusal({ ...maintainer, roleInProject: 30 }, projectRunner(2), 1)).toMatch(/Only Maintainers of this project/);
    expect(runnerUnassignRefusal({ isAdmin: true, canWrite: true, roleInProject: 0 }, projectRunner(2, true), 0)).toBeNull();
    expect(runnerUnassignRefusal({ isAdmin: true, canWrite: true, roleInProject: 0 }, projectRunner(1), 0)).toMatch(/last project/);
  });
});

describe('runnerDeleteRefusal', () => {
  it('leaves a runner of several projects to administrators, as the platform does', () => {
    expect(runnerDeleteRefusal({ isAdmin: false }, runner('project_type', 2))).toMatch(/several projects/);
    expect(runnerDeleteRefusal({ isAdmin: false }, runner('project_type', 1))).toBeNull();
    expect(runnerDeleteRefusal({ isAdmin: true }, runner('project_type', 2))).toBeNull();
  });
});
