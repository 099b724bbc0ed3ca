import { useId } from 'react';
import type { Visibility } from '../api/groups.ts';
import { ROLES } from '../api/members.ts';

interface Choice<T extends string> {
  value: T;
  label: string;
}

/** A labelled select of fixed choices; the value '' stands for "not filtered". */
export function ChoiceSelect<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: readonly Choice<T>[]; onChange: (value: T) => void }) {
  // a label beside the select, not around it: the select's name is the label alone, not the label and the chosen option
  const id = useId();
  return (
    <span className="inline-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}

const VISIBILITY_CHOICES = [
  { value: '', label: 'Any' },
  { value: 'public', label: 'Public' },
  { value: 'internal', label: 'Internal' },
  { value: 'private', label: 'Private' },
] as const;

/** `min_access_level` of the groups and projects lists: "at least this role", or any. */
const MIN_ROLE_CHOICES = [{ value: '', label: 'Any' }, ...ROLES.map((role) => ({ value: String(role.value), label: `${role.label} or above` }))] as const;

export interface VisibilityAndRole {
  visibility?: Visibility;
  min_access_level?: number;
}

/** The filters the groups and projects lists share: visibility, and the least role the caller holds there. */
export function VisibilityAndRoleFilters({ value, onChange }: { value: VisibilityAndRole; onChange: (changes: VisibilityAndRole) => void }) {
  return (
    <>
      <ChoiceSelect label="Visibility" value={value.visibility ?? ''} options={VISIBILITY_CHOICES} onChange={(visibility) => onChange({ visibility: visibility || undefined })} />
      <ChoiceSelect
        label="My role"
        value={value.min_access_level ? String(value.min_access_level) : ''}
        options={MIN_ROLE_CHOICES}
        onChange={(level) => onChange({ min_access_level: level ? Number(level) : undefined })}
      />
    </>
  );
}
