import type { TagProtectionRule } from '../../api/registry.ts';

/** The rules' levels as roles: `admin` is above every project role. */
const LEVELS: Record<string, number> = { developer: 30, maintainer: 40, owner: 50, admin: 60 };

/** The caller's standing: a role in the project, or an administrator (who is above `admin` rules too). */
export interface ProtectionCaller {
  isAdmin: boolean;
  role: number;
}

/** Whether the caller may read the project's tag protection rules: Maintainers and up (the platform refuses them below, so they are not asked for). */
export function mayReadRules(caller: ProtectionCaller): boolean {
  return caller.isAdmin || caller.role >= LEVELS.maintainer;
}

/** Whether this rule stops the caller deleting: its delete level is above the caller's role. */
export function refusesDelete(rule: Pick<TagProtectionRule, 'minimum_access_level_for_delete'>, caller: ProtectionCaller): boolean {
  if (caller.isAdmin) return false;
  const level = rule.minimum_access_level_for_delete ? (LEVELS[rule.minimum_access_level_for_delete] ?? 60) : 0;
  return caller.role < level;
}

/** The matcher of a tag name against the rules that refuse the caller (RE2, as the platform matches; the engine loads here). */
export async function protectionMatcher(rules: readonly TagProtectionRule[], caller: ProtectionCaller): Promise<(tagName: string) => TagProtectionRule | undefined> {
  const refusing = rules.filter((rule) => refusesDelete(rule, caller));
  if (!refusing.length) return () => undefined;
  const { RE2JS } = await import('re2js');
  const compiled = refusing.flatMap((rule) => {
    try {
      return [{ rule, pattern: RE2JS.compile(rule.tag_name_pattern) }];
    } catch {
      return [];
    }
  });
  // the platform finds a rule whose pattern occurs in the name (not only a whole match)
  return (tagName) => compiled.find(({ pattern }) => pattern.matcher(tagName).find())?.rule;
}
