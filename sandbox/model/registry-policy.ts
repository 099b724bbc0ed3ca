import { RE2JS } from 're2js';
import type { Db } from '../db.ts';
import { paramError, validationError } from '../http/errors.ts';
import { collectParamErrors, type ParamValue } from '../http/params.ts';

/**
 * A project's container registry cleanup policy (ContainerExpirationPolicy): shown as
 * `container_expiration_policy` on the project, written through `container_expiration_policy_attributes`.
 */

export const CADENCES = ['1d', '7d', '14d', '1month', '3month'] as const;
export const KEEP_N_VALUES = [1, 5, 10, 25, 50, 100] as const;
export const POLICY_OLDER_THAN = ['7d', '14d', '30d', '60d', '90d'] as const;

export interface ExpirationPolicyRow {
  project_id: number;
  cadence: string;
  enabled: number;
  keep_n: number | null;
  older_than: string | null;
  name_regex: string | null;
  name_regex_keep: string | null;
  next_run_at: string | null;
}

const CADENCE_DAYS: Record<string, number> = { '1d': 1, '7d': 7, '14d': 14 };

/** `next_run_at` is set on every save: now plus the cadence (months are calendar months). */
export function nextRunAt(cadence: string, from: Date): string {
  const next = new Date(from.getTime());
  const days = CADENCE_DAYS[cadence];
  if (days !== undefined) next.setTime(from.getTime() + days * 86_400_000);
  else next.setUTCMonth(next.getUTCMonth() + (cadence === '3month' ? 3 : 1));
  return next.toISOString();
}

/** The policy a project has before anyone saved one: off, the platform's defaults. */
function defaultPolicy(projectId: number, createdAt: string): ExpirationPolicyRow {
  return { project_id: projectId, cadence: '1d', enabled: 0, keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: null, next_run_at: nextRunAt('1d', new Date(createdAt)) };
}

export function findPolicy(db: Db, project: { id: number; created_at: string }): ExpirationPolicyRow {
  return (db.prepare('SELECT * FROM container_expiration_policies WHERE project_id = ?').get(project.id) as ExpirationPolicyRow | undefined) ?? defaultPolicy(project.id, project.created_at);
}

export function policyEntity(policy: ExpirationPolicyRow) {
  return {
    cadence: policy.cadence,
    enabled: Boolean(policy.enabled),
    keep_n: policy.keep_n,
    older_than: policy.older_than,
    name_regex: policy.name_regex,
    name_regex_keep: policy.name_regex_keep,
    next_run_at: policy.next_run_at,
  };
}

const FIELD = 'container_expiration_policy_attributes';

/** The RE2 syntax error of a pattern, or null when it compiles. */
export function re2Error(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Applies `container_expiration_policy_attributes` (Grape types first: 400 `{"error"}`; then the
 * model's validations: 400 `{"message": {"container_expiration_policy.field": [...]}}`). Returns
 * the row to save, or null when the request has no such attributes.
 */
export function policyUpdate(db: Db, project: { id: number; created_at: string }, raw: ParamValue | undefined, now: Date): ExpirationPolicyRow | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw paramError(`${FIELD} is invalid`);
  const next = { ...findPolicy(db, project) };
  const text = (key: string): string | null | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (value === null) return null;
    if (typeof value === 'object') throw paramError(`${FIELD}[${key}] is invalid`);
    return String(value);
  };
  collectParamErrors([
    () => {
      const value = text('cadence');
      if (value !== undefined) next.cadence = value ?? '';
    },
    () => {
      const value = text('keep_n');
      if (value === undefined) return;
      if (value === null || value === '') next.keep_n = null;
      else if (!/^-?\d+$/.test(value.trim())) throw paramError(`${FIELD}[keep_n] is invalid`);
      else next.keep_n = Number(value);
    },
    () => {
      const value = text('older_than');
      if (value !== undefined) next.older_than = value === '' ? null : value;
    },
    () => {
      // name_regex_delete is the newer name of name_regex
      const value = text('name_regex_delete') ?? text('name_regex');
      if (value !== undefined) next.name_regex = value;
    },
    () => {
      const value = text('name_regex_keep');
      if (value !== undefined) next.name_regex_keep = value === '' ? null : value;
    },
    () => {
      const value = text('enabled');
      if (value === undefined) return;
      const lower = (value ?? '').toLowerCase();
      if (lower === 'true' || lower === '1') next.enabled = 1;
      else if (lower === 'false' || lower === '0') next.enabled = 0;
      else throw paramError(`${FIELD}[enabled] is invalid`);
    },
  ]);

  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[`container_expiration_policy.${field}`] ??= []).push(message);
  if (!next.cadence) add('cadence', "can't be blank");
  else if (!(CADENCES as readonly string[]).includes(next.cadence)) add('cadence', 'is not included in the list');
  if (next.older_than !== null && !(POLICY_OLDER_THAN as readonly string[]).includes(next.older_than)) add('older_than', 'is not included in the list');
  if (next.keep_n !== null && !(KEEP_N_VALUES as readonly number[]).includes(next.keep_n)) add('keep_n', 'is not included in the list');
  if (next.enabled) {
    if (!next.name_regex) add('name_regex', "can't be blank");
    else {
      const problem = re2Error(next.name_regex);
      if (problem) add('name_regex', `not valid RE2 syntax: ${problem}`);
    }
    if (next.name_regex_keep) {
      const problem = re2Error(next.name_regex_keep);
      if (problem) add('name_regex_keep', `not valid RE2 syntax: ${problem}`);
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);
  next.next_run_at = nextRunAt(next.cadence, now);
  return next;
}

export function savePolicy(db: Db, policy: ExpirationPolicyRow): void {
  db.prepare(
    `INSERT OR REPLACE INTO container_expiration_policies (project_id, cadence, enabled, keep_n, older_than, name_regex, name_regex_keep, next_run_at)
     VALUES (@project_id, @cadence, @enabled, @keep_n, @older_than, @name_regex, @name_regex_keep, @next_run_at)`,
  ).run(policy);
}
