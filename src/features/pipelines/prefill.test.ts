import { describe, expect, it } from 'vitest';
import type { CiConfigVariable } from '../../api/graphql.ts';
import { blankRow, prefillChanges } from './prefill.ts';

const offered = (key: string, value: string | null, valueOptions: string[] = []): CiConfigVariable => ({ key, value, valueOptions, description: `About ${key}` });
const row = (key: string, value: string) => ({ key, value, variable_type: 'env_var' as const });

describe('prefillChanges', () => {
  it('puts the described variables before the blank row, with their values or first option', () => {
    const changes = prefillChanges([blankRow()], [offered('GREETING', 'hello'), offered('DEPLOY_ENV', null, ['staging', 'production']), { key: 'PLAIN', value: 'x', valueOptions: [], description: null }]);
    expect(changes).toEqual({ remove: [], prepend: [row('GREETING', 'hello'), row('DEPLOY_ENV', 'staging')], appendBlank: false });
  });

  it('leaves the row being typed in where it is, and adds a blank row after it', () => {
    expect(prefillChanges([row('KEEP', '')], [])).toEqual({ remove: [], prepend: [], appendBlank: true });
    expect(prefillChanges([row('KEEP', ''), blankRow()], [offered('GREETING', 'hi')])).toEqual({ remove: [], prepend: [row('GREETING', 'hi')], appendBlank: false });
  });

  it("replaces the rows of a key the file offers with this ref's value", () => {
    const changes = prefillChanges([row('GREETING', 'old'), row('MINE', '1'), blankRow()], [offered('GREETING', 'new')]);
    expect(changes).toEqual({ remove: [0], prepend: [row('GREETING', 'new')], appendBlank: false });
  });

  it('adds a blank row when removing leaves none at the end', () => {
    expect(prefillChanges([row('GREETING', 'old')], [offered('GREETING', 'new')])).toEqual({ remove: [0], prepend: [row('GREETING', 'new')], appendBlank: true });
  });
});
