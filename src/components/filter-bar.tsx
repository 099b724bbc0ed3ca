import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Scope } from '../api/keys.ts';
import { branchesQueries } from '../api/branches.ts';
import { labelsQueries } from '../api/labels.ts';
import { milestonesQueries } from '../api/milestones.ts';
import { usersQueries } from '../api/users.ts';
import { useConnection } from '../api/react.ts';
import { useSettled } from './list-hooks.ts';
import type { TokenFieldDef, TokenModel } from '../lib/filter-tokens.ts';

/** Where the list is: labels and milestones are a group's or a project's, branches a project's. */
export type FilterScope = 'instance' | Scope;

/** Suggested values of a field: the platform's words (None, Any...) and names from the API. */
function useSuggestions(scope: FilterScope, info: TokenFieldDef, draft: string, wanted: boolean): string[] {
  const connection = useConnection();
  const search = useSettled(draft.trim(), 250);
  const named = scope === 'instance' ? { project: 0 } : scope;
  const project = scope !== 'instance' && 'project' in scope ? scope.project : undefined;
  const source = wanted ? info.suggest : undefined;
  const labels = useQuery({ ...labelsQueries.list(connection, named, { search, per_page: 20, page: 1 }), enabled: source === 'labels' && scope !== 'instance' });
  const milestones = useQuery({
    ...milestonesQueries.list(connection, named, { search, include_ancestors: true, per_page: 20, page: 1 }),
    enabled: source === 'milestones' && scope !== 'instance',
  });
  const branches = useQuery({ ...branchesQueries.list(connection, project ?? 0, { search: search || undefined, per_page: 20, page: 1 }), enabled: source === 'branches' && project !== undefined });
  const users = useQuery({ ...usersQueries.search(connection, search), enabled: source === 'users' && search.length > 0 });
  const special = info.special ?? [];
  const names =
    source === 'labels' ? (labels.data?.items.map((label) => label.name) ?? [])
    : source === 'milestones' ? (milestones.data?.items.map((milestone) => milestone.title) ?? [])
    : source === 'branches' ? (branches.data?.items.map((branch) => branch.name) ?? [])
    : source === 'users' ? (users.data?.items.map((user) => user.username) ?? [])
    : [];
  return [...special, ...names.filter((name) => !special.includes(name))];
}

interface FilterBarProps<S, F extends string> {
  /** The region's name, e.g. "Filter issues". */
  label: string;
  scope: FilterScope;
  model: TokenModel<S, F>;
  search: S;
  onChange: (search: S) => void;
  /** Controls that belong beside one field's value (the issues' "In" beside Search). */
  extra?: (field: F) => ReactNode;
}

/**
 * Every filter of a list as a token (`label is not wontfix`), each with its remove button, and a
 * form that adds one: field, then is / is not, then a value with suggestions. Field and operator
 * are selects and the value a combobox (a select for fixed values), so the keyboard alone builds
 * a token. The URL holds every token: the bar only reads `search` and hands changes to `onChange`.
 */
export function FilterBar<S, F extends string>({ label, scope, model, search, onChange, extra }: FilterBarProps<S, F>) {
  const tokens = model.tokensFromSearch(search);
  const [field, setField] = useState<F>(model.fields[0].field);
  const [negated, setNegated] = useState(false);
  const info = model.fieldInfo(field);
  const [value, setValue] = useState(info.choices?.[0]?.value ?? '');
  const [problem, setProblem] = useState<string>();
  // suggestions are asked for once the value gets focus, not with every list's first paint
  const [wanted, setWanted] = useState(false);
  const suggestions = useSuggestions(scope, info, value, wanted);
  const listId = useId();
  const errorId = useId();

  const choose = (next: F) => {
    const nextInfo = model.fieldInfo(next);
    setField(next);
    setProblem(undefined);
    if (!nextInfo.negatable) setNegated(false);
    setValue(nextInfo.choices?.[0]?.value ?? '');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = { field, negated, value: value.trim() };
    const wrong = model.tokenProblem(token, search);
    setProblem(wrong);
    if (wrong) return;
    onChange(model.addToken(search, token));
    if (!info.choices) setValue('');
  };

  const valueControl = info.choices ? (
    <select className="input" value={value} onChange={(event) => setValue(event.target.value)}>
      {info.choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  ) : (
    <input
      className="input"
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? errorId : undefined}
      list={info.suggest || info.special ? listId : undefined}
      autoComplete="off"
      value={value}
      placeholder={info.placeholder ?? (info.suggest ? 'Type to see suggestions' : undefined)}
      inputMode={info.numeric ? 'numeric' : undefined}
      onChange={(event) => setValue(event.target.value)}
      onFocus={() => setWanted(true)}
    />
  );
  // beside the field, not in its label: the suggestions' text would become part of the label's
  const suggestionList =
    !info.choices && (info.suggest || info.special) ? (
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          // the text too, so the suggestion has an accessible name
          <option key={suggestion} value={suggestion}>
            {suggestion}
          </option>
        ))}
      </datalist>
    ) : null;

  return (
    <div className="filter-bar" role="search" aria-label={label}>
      {tokens.length ? (
        <ul className="chip-list" aria-label="Active filters">
          {tokens.map((token) => {
            const words = model.tokenText(token);
            return (
              <li key={`${token.field}-${token.negated}-${token.value}`} className="token">
                <span>{words}</span>
                <button type="button" className="button button--danger-quiet" aria-label={`Remove filter ${words}`} onClick={() => onChange(model.removeToken(search, token))}>
                  ×
                </button>
              </li>
            );
          })}
          <li>
            <button type="button" className="button" onClick={() => onChange(model.clearTokens(search))}>
              Clear all filters
            </button>
          </li>
        </ul>
      ) : (
        <p className="muted">No filters: add one below.</p>
      )}
      <form className="filter-bar" aria-label="Add a filter" onSubmit={submit}>
        <label className="inline-field">
          <span>Filter by</span>
          <select className="input" value={field} onChange={(event) => choose(event.target.value as F)}>
            {model.fields.map((option) => (
              <option key={option.field} value={option.field}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Operator</span>
          <select className="input" value={negated ? 'not' : 'is'} disabled={!info.negatable} onChange={(event) => setNegated(event.target.value === 'not')}>
            <option value="is">is</option>
            {info.negatable ? <option value="not">is not</option> : null}
          </select>
        </label>
        <label className="inline-field">
          <span>Value</span>
          {valueControl}
        </label>
        {suggestionList}
        {extra?.(field)}
        <button type="submit" className="button">
          Add filter
        </button>
        {problem ? (
          <span className="field__error" id={errorId} role="alert">
            {problem}
          </span>
        ) : null}
      </form>
    </div>
  );
}
