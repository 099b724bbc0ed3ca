import { useState, type FormEvent } from 'react';
import { Field } from '../../components/field.tsx';
import { clearFilters, isFiltered, type MergeRequestsSearch } from './search.ts';

type Draft = Record<string, string>;

const TEXT_FIELDS = [
  { key: 'author', label: 'Author' },
  { key: 'not_author', label: 'Author is not' },
  { key: 'assignee', label: 'Assignee', hint: 'A username, None or Any' },
  { key: 'not_assignee', label: 'Assignee is not' },
  { key: 'reviewer', label: 'Reviewer', hint: 'A username, None or Any' },
  { key: 'not_reviewer', label: 'Reviewer is not' },
  { key: 'label', label: 'Labels', hint: 'Comma-separated; all must match' },
  { key: 'not_label', label: 'Labels are not', hint: 'Comma-separated' },
  { key: 'milestone', label: 'Milestone' },
  { key: 'not_milestone', label: 'Milestone is not' },
  { key: 'target_branch', label: 'Target branch' },
  { key: 'search', label: 'Search title and description' },
] as const;

function draftOf(search: MergeRequestsSearch): Draft {
  const draft: Draft = { draft: search.draft ?? '' };
  for (const { key } of TEXT_FIELDS) {
    const value = search[key];
    draft[key] = Array.isArray(value) ? value.join(', ') : (value ?? '');
  }
  return draft;
}

function searchOf(search: MergeRequestsSearch, draft: Draft): MergeRequestsSearch {
  const one = (key: string) => draft[key].trim() || undefined;
  const many = (key: string) => [...new Set(draft[key].split(',').map((item) => item.trim()).filter(Boolean))];
  return {
    ...search,
    author: one('author'), not_author: one('not_author'),
    assignee: one('assignee'), not_assignee: one('not_assignee'),
    reviewer: one('reviewer'), not_reviewer: one('not_reviewer'),
    label: many('label'), not_label: many('not_label'),
    milestone: one('milestone'), not_milestone: one('not_milestone'),
    target_branch: one('target_branch'),
    search: draft.search.trim(),
    draft: draft.draft === 'yes' || draft.draft === 'no' ? draft.draft : undefined,
    page: 1,
  };
}

/**
 * The list's filters as one form: typing changes nothing until "Apply filters", so a half-typed
 * username never asks the API. The form starts again from the URL whenever the URL changes.
 */
export function MergeRequestFilterForm({ search, onChange }: { search: MergeRequestsSearch; onChange: (search: MergeRequestsSearch) => void }) {
  const [draft, setDraft] = useState(() => draftOf(search));
  const set = (key: string, value: string) => setDraft((previous) => ({ ...previous, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(searchOf(search, draft));
  };
  return (
    <form className="filter-form" aria-label="Merge request filters" onSubmit={submit}>
      <div className="filter-bar">
        {TEXT_FIELDS.map((field) => (
          <Field key={field.key} label={field.label} hint={'hint' in field ? field.hint : undefined}>
            <input className="input" value={draft[field.key]} onChange={(event) => set(field.key, event.target.value)} />
          </Field>
        ))}
        <Field label="Draft">
          <select className="input" value={draft.draft} onChange={(event) => set('draft', event.target.value)}>
            <option value="">Drafts and ready</option>
            <option value="yes">Drafts only</option>
            <option value="no">Not drafts</option>
          </select>
        </Field>
      </div>
      <div className="filter-bar">
        <button type="submit" className="button button--primary">
          Apply filters
        </button>
        {isFiltered(search) ? (
          <button type="button" className="button" onClick={() => onChange(clearFilters(search))}>
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}
