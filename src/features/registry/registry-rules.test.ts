import { describe, expect, it } from 'vitest';
import { reasonText } from './cleanup-preview.tsx';
import { draftRules, EMPTY_DRAFT } from './bulk-delete.tsx';
import { BULK_DELETE_INTERVAL_MS, nextBulkRunAt } from './last-run.ts';
import { maintainerRefusal, tagDeleteRefusal } from './permissions.ts';
import { policyRules, policyValues } from './policy-editor.tsx';
import { refusesDelete } from './protection.ts';
import { shortDigest } from './repository-screen.tsx';

describe('the registry screens’ rules', () => {
  it('reads the bulk delete draft as the rules module takes it: blank fields are no rule', () => {
    expect(draftRules(EMPTY_DRAFT)).toEqual({ nameRegexDelete: null, nameRegexKeep: null, keepN: null, olderThan: null });
    expect(draftRules({ nameRegexDelete: 'main-.*', nameRegexKeep: '', keepN: ' 5 ', olderThan: ' 7d ' })).toEqual({ nameRegexDelete: 'main-.*', nameRegexKeep: null, keepN: '5', olderThan: '7d' });
  });

  it('words each reason with the number or age the rules gave, without the outcome the column shows', () => {
    expect(reasonText('newest-n', { keepN: 3 })).toBe('Among the newest tags to keep (3)');
    expect(reasonText('younger', { olderThan: '7d' })).toBe('Younger than the age limit (limit 7d)');
    expect(reasonText('deleted', { olderThan: '1month' })).toBe('Matched the delete expression (older than 1month)');
    expect(reasonText('deleted', {})).toBe('Matched the delete expression');
    expect(reasonText('latest', {})).toBe('The tag named latest is never deleted');
  });

  it('explains a second bulk delete within the hour, and allows one after it', () => {
    const last = Date.UTC(2026, 0, 1, 12);
    expect(nextBulkRunAt(null, last)).toBeNull();
    expect(nextBulkRunAt(last, last + 59 * 60_000)).toBe(last + BULK_DELETE_INTERVAL_MS);
    expect(nextBulkRunAt(last, last + BULK_DELETE_INTERVAL_MS)).toBeNull();
  });

  it('refuses by role as the sandbox does: Developer deletes a tag, Maintainer an image, a bulk delete and the policy', () => {
    const caller = (role: number, canWrite = true, isAdmin = false) => ({ role, canWrite, isAdmin });
    expect(tagDeleteRefusal(caller(30))).toBeNull();
    expect(tagDeleteRefusal(caller(20))).toMatch(/Developer/);
    expect(maintainerRefusal(caller(30), 'A bulk delete')).toBe('A bulk delete needs the Maintainer role or higher in this project.');
    expect(maintainerRefusal(caller(0, true, true), 'A bulk delete')).toBeNull();
    expect(tagDeleteRefusal(caller(50, false))).toMatch(/read-only/);
  });

  it('a protection rule refuses deletes below its level, never an administrator', () => {
    expect(refusesDelete({ minimum_access_level_for_delete: 'owner' }, { role: 40, isAdmin: false })).toBe(true);
    expect(refusesDelete({ minimum_access_level_for_delete: 'owner' }, { role: 50, isAdmin: false })).toBe(false);
    expect(refusesDelete({ minimum_access_level_for_delete: 'maintainer' }, { role: 40, isAdmin: false })).toBe(false);
    expect(refusesDelete({ minimum_access_level_for_delete: 'admin' }, { role: 50, isAdmin: false })).toBe(true);
    expect(refusesDelete({ minimum_access_level_for_delete: 'admin' }, { role: 0, isAdmin: true })).toBe(false);
    expect(refusesDelete({ minimum_access_level_for_delete: null }, { role: 30, isAdmin: false })).toBe(false);
  });

  it('starts a policy form from the platform’s defaults, and reads the saved one as rules', () => {
    expect(policyValues(null)).toEqual({ enabled: false, cadence: '1d', keep_n: 10, older_than: '90d', name_regex: '', name_regex_keep: '' });
    const saved = policyValues({ enabled: true, cadence: '7d', keep_n: null, older_than: null, name_regex: '.*', name_regex_keep: 'v.*', next_run_at: null });
    expect(saved).toEqual({ enabled: true, cadence: '7d', keep_n: null, older_than: null, name_regex: '.*', name_regex_keep: 'v.*' });
    expect(policyRules(saved)).toEqual({ nameRegexDelete: '.*', nameRegexKeep: 'v.*', keepN: null, olderThan: null });
  });

  it('shortens a digest to its algorithm and 12 hex digits', () => {
    expect(shortDigest('sha256:c3490dcf10ffb6530c1303522a1405dfaf7daecd8f38d3d1de1b6f8e1fa2ea56')).toBe('sha256:c3490dcf10ff');
    expect(shortDigest('c3490dcf10ffb6530c13')).toBe('c3490dcf10ff');
  });
});
