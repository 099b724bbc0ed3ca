import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IssueScope } from '../../api/issues.ts';
import { labelsQueries } from '../../api/labels.ts';
import { milestonesQueries } from '../../api/milestones.ts';
import { usersQueries } from '../../api/users.ts';
import { useConnection } from '../../api/react.ts';
import { useSettled } from '../../components/list-hooks.ts';
import {
  DUE_DATES, ISSUE_TYPES, SPECIAL_VALUES, TOKEN_FIELDS, addToken, clearTokens, fieldInfo, removeToken, tokenProblem, tokensFromSearch, tokenText,
  type IssuesSearch, type TokenField,
} from './search.ts';

/** Suggested values of a field: the platform's words (None, Any...) and names from the API. */
function useSuggestions(scope: IssueScope, field: TokenField, draft: string, wanted: boolean): string[] {
  const connection = useConnection();
  const search = useSettled(draft.trim(), 250);
  const named = scope !== 'instance';
  const labels = useQuery({ ...labelsQueries.list(connection, named ? scope : { project: 0 }, { search, per_page: 20, page: 1 }), enabled: wanted && named && field === 'label' });
  const milestones = useQuery({
    ...milestonesQueries.list(connection, named ? scope : { project: 0 }, { search, include_ancestors: true, per_page: 20, page: 1 }),
    enabled: wanted && named && field === 'milestone',
  });
  const users = useQuery({ ...usersQueries.search(connection, search), enabled: wanted && (field === 'assignee' || field === 'author') && search.length > 0 });
  const special = SPECIAL_VALUES[field] ?? [];
  const names =
    field === 'label' ? (labels.data?.items.map((label) => label.name) ?? [])
    : field === 'milestone' ? (milestones.data?.items.map((milestone) => milestone.title) ?? [])
    : field === 'assignee' || field === 'author' ? (users.data?.items.map((user) => user.username) ?? [])
    : [];
  return [...special, ...names.filter((name) => !special.includes(name))];
}

interface FilterBarProps {
  scope: IssueScope;
  search: IssuesSearch;
  onChange: (search: IssuesSearch) => void;
}

/**
 * Every filter of an issue list as a token (`label is not wontfix`), each with its remove
 * button, and a form that adds one: field, then is / is not, then a value with suggestions.
 * Field and operator are selects and the value a combobox, so the keyboard alone builds a token.
 */
export function FilterBar({ scope, search, onChange }: FilterBarProps) {
  const tokens = tokensFromSearch(search);
  const [field, setField] = useState<TokenField>('label');
  const [negated, setNegated] = useState(false);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const info = fieldInfo(field);
  // suggestions are asked for once the value gets focus, not with every list's first paint
  const [wanted, setWanted] = useState(false);
  const suggestions = useSuggestions(scope, field, value, wanted);
  const listId = useId();
  const errorId = useId();

  const choose = (next: TokenField) => {
    setField(next);
    setProblem(undefined);
    if (!fieldInfo(next).negatable) setNegated(false);
    setValue(next === 'confidential' ? 'yes' : next === 'due' ? DUE_DATES[0].value : next === 'type' ? ISSUE_TYPES[0] : '');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = { field, negated, value: value.trim() };
    const wrong = tokenProblem(token);
    setProblem(wrong);
    if (wrong) return;
    onChange(addToken(search, token));
    if (field !== 'confidential' && field !== 'due' && field !== 'type') setValue('');
  };

  const valueControl =
    field === 'confidential' ? (
      <select className="input" aria-label="Filter value" value={value} onChange={(event) => setValue(event.target.value)}>
        <option value="yes">yes</option>
        <option value="no">no</option>
      </select>
    ) : field === 'due' ? (
      <select className="input" aria-label="Filter value" value={value} onChange={(event) => setValue(event.target.value)}>
        {DUE_DATES.map((due) => (
          <option key={due.value} value={due.value}>
            {due.label}
          </option>
        ))}
      </select>
    ) : field === 'type' ? (
      <select className="input" aria-label="Filter value" value={value} onChange={(event) => setValue(event.target.value)}>
        {ISSUE_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </select>
    ) : (
      <>
        <input
          className="input"
          aria-label="Filter value"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          list={listId}
          autoComplete="off"
          value={value}
          placeholder={field === 'iid' ? 'e.g. 12' : field === 'search' ? 'Words in title or description' : 'Type to see suggestions'}
          inputMode={field === 'iid' ? 'numeric' : undefined}
          onChange={(event) => setValue(event.target.value)}
          onFocus={() => setWanted(true)}
        />
        <datalist id={listId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      </>
    );

  return (
    <div className="filter-bar" role="search" aria-label="Filter issues">
      {tokens.length ? (
        <ul className="chip-list" aria-label="Active filters">
          {tokens.map((token) => {
            const words = tokenText(token);
            return (
              <li key={`${token.field}-${token.negated}-${token.value}`} className="token">
                <span>{words}</span>
                <button type="button" className="button button--danger-quiet" aria-label={`Remove filter ${words}`} onClick={() => onChange(removeToken(search, token))}>
                  ×
                </button>
              </li>
            );
          })}
          <li>
            <button type="button" className="button" onClick={() => onChange(clearTokens(search))}>
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
          <select className="input" value={field} onChange={(event) => choose(event.target.value as TokenField)}>
            {TOKEN_FIELDS.map((option) => (
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
        {valueControl}
        {field === 'search' ? (
          <label className="inline-field">
            <span>In</span>
            <select className="input" value={search.in ?? ''} onChange={(event) => onChange({ ...search, in: (event.target.value || undefined) as IssuesSearch['in'], page: 1 })}>
              <option value="">Title and description</option>
              <option value="title">Title</option>
              <option value="description">Description</option>
            </select>
          </label>
        ) : null}
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
