import { describe, expect, it } from 'vitest';
import type { ProtectedBranch } from '../../api/branches.ts';
import { describeLevels, ruleCovers, rulesFor } from './protection-rules.ts';

const rule = (name: string): ProtectedBranch => ({ id: name.length, name, push_access_levels: [], merge_access_levels: [], unprotect_access_levels: [], allow_force_push: false, inherited: false, code_owner_approval_required: false });

describe('protection rules', () => {
  it('matches exact names and * wildcards, escaping the rest', () => {
    expect(ruleCovers('main', 'main')).toBe(true);
    expect(ruleCovers('release/*', 'release/1.x/hotfix')).toBe(true);
    expect(ruleCovers('v1.*', 'v1x2')).toBe(false);
    expect(ruleCovers('*-stable', 'x-stable')).toBe(true);
  });

  it('lists the branch’s own rule before the wildcards', () => {
    expect(rulesFor('release/1', [rule('release/*'), rule('release/1'), rule('main')]).map((item) => item.name)).toEqual(['release/1', 'release/*']);
  });

  it('describes who may push or merge', () => {
    expect(describeLevels([])).toBe('No one');
    expect(describeLevels([{ access_level: 30, access_level_description: 'Developers + Maintainers' }])).toBe('Developers + Maintainers');
    expect(describeLevels([{ access_level: 0 }])).toBe('No one');
  });
});
