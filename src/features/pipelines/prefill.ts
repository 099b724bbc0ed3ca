import type { CiConfigVariable } from '../../api/graphql.ts';
import type { PipelineVariableRow } from '../../api/pipelines.ts';

export const blankRow = (): PipelineVariableRow => ({ key: '', value: '', variable_type: 'env_var' });

export interface PrefillChanges {
  /** Rows the file now fills: the user's rows of the same keys. */
  remove: number[];
  /** The file's rows, to go first. */
  prepend: PipelineVariableRow[];
  /** Whether a blank row must be added at the end for the user to type in. */
  appendBlank: boolean;
}

/**
 * What the CI file's variables change in the rows: those with a description go first (the platform's
 * form prefills only these: a description is how a file offers a variable to people) with this ref's
 * values, replacing rows of the same key. Every other row stays where it is, so the one being typed in
 * keeps its element and the focus.
 */
export function prefillChanges(rows: readonly PipelineVariableRow[], fileVariables: readonly CiConfigVariable[]): PrefillChanges {
  const offered = fileVariables.filter((variable) => variable.description);
  const prepend = offered.map((variable): PipelineVariableRow => ({ key: variable.key, value: variable.value ?? variable.valueOptions[0] ?? '', variable_type: 'env_var' }));
  const fileKeys = new Set(offered.map((variable) => variable.key));
  const remove = rows.flatMap((row, index) => (row.key && fileKeys.has(row.key) ? [index] : []));
  const kept = rows.filter((_, index) => !remove.includes(index));
  const last = kept.at(-1);
  return { remove, prepend, appendBlank: !last || Boolean(last.key || last.value) };
}
