import type { ProtectedBranch } from '../../api/branches.ts';

/** Whether a protection rule's name covers a branch: `*` matches any characters, `/` included. */
export function ruleCovers(rule: string, branch: string): boolean {
  if (!rule.includes('*')) return rule === branch;
  const pattern = rule.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(branch);
}

/** The rules protecting a branch: its own (exact name) first, then wildcards. */
export function rulesFor(branch: string, rules: readonly ProtectedBranch[]): ProtectedBranch[] {
  const covering = rules.filter((rule) => ruleCovers(rule.name, branch));
  return [...covering.filter((rule) => rule.name === branch), ...covering.filter((rule) => rule.name !== branch)];
}

/** "Maintainers", "No one", "Developers + Maintainers, alice": who a list of access levels lets in. */
export function describeLevels(levels: ProtectedBranch['push_access_levels']): string {
  if (!levels.length) return 'No one';
  return levels.map((level) => level.access_level_description ?? (level.access_level === 0 ? 'No one' : level.access_level === 30 ? 'Developers + Maintainers' : 'Maintainers')).join(', ');
}
