import { useState, type CSSProperties, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { membersQueries } from '../api/members.ts';
import { useConnection } from '../api/react.ts';
import { errorText } from './error-panel.tsx';
import { SearchInput } from './list-controls.tsx';
import { WriteOutcome } from './write-outcome.tsx';
import type { UncertainSignal } from './uncertain-write.tsx';
import type { WriteStatus } from './use-write.ts';
import './sidebar-section.css';

/** One field of a detail screen's sidebar, under its heading. */
export function SidebarSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    // headings, not named regions: a page of a dozen small landmarks helps nobody navigate
    <div className="detail-sidebar__section">
      <h2 className="detail-sidebar__heading">{title}</h2>
      {children}
    </div>
  );
}

export interface Chip {
  key: string;
  text: ReactNode;
  /** The remove button's accessible name: "Unassign Alice". */
  removeLabel: string;
  onRemove: () => void;
  style?: CSSProperties;
}

export interface Candidate {
  key: string;
  /** The pick button's text and name: "Add label bug". */
  label: string;
  onPick: () => void;
}

/** What an issue or merge request holds (removable chips) and a search to add more: assignees, reviewers, labels. */
export function ChipsAndSearch(props: {
  title: string;
  chips: Chip[];
  editable: boolean;
  pending: boolean;
  search: string;
  onSearch: (search: string) => void;
  searchLabel: string;
  placeholder: string;
  candidatesLabel: string;
  candidates: Candidate[] | undefined;
  searchError: unknown;
  noMatch: string;
  outcome: ReactNode;
}) {
  const { title, chips, editable, pending, search, candidates } = props;
  return (
    <SidebarSection title={title}>
      {chips.length ? (
        <ul className="chip-list" aria-label={title}>
          {chips.map((chip) => (
            <li key={chip.key} className="chip" style={chip.style}>
              {chip.text}
              {editable ? (
                <button type="button" className="button button--danger-quiet" disabled={pending} onClick={chip.onRemove}>
                  <span className="sr-only">{chip.removeLabel}</span>
                  <span aria-hidden="true">×</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None</p>
      )}
      {editable ? (
        <>
          <SearchInput label={props.searchLabel} value={search} onSearch={props.onSearch} placeholder={props.placeholder} delayMs={200} />
          {props.searchError ? <p role="alert">{errorText(props.searchError)}</p> : null}
          {search && candidates?.length === 0 ? <p className="muted">{props.noMatch}</p> : null}
          {candidates?.length ? (
            <ul className="link-list" aria-label={props.candidatesLabel}>
              {candidates.map((candidate) => (
                <li key={candidate.key}>
                  <button type="button" className="button" disabled={pending} onClick={candidate.onPick}>
                    {candidate.label}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {props.outcome}
        </>
      ) : null}
    </SidebarSection>
  );
}

interface Person {
  id: number;
  name: string;
  username: string;
}

/** After a write, empties a field only if it still holds what was sent: what was typed meanwhile stays. */
export function emptyIfSent(setField: Dispatch<SetStateAction<string>>, sent: string) {
  return () => setField((now) => (now.trim() === sent.trim() ? '' : now));
}

/**
 * People of an issue or merge request (assignees, reviewers) with a search of the project's
 * members to add one; `onChange` gets the whole new list of ids, as the platform's `*_ids` take it.
 */
export function ProjectMemberPicker(props: {
  projectId: number;
  title: string;
  people: readonly Person[];
  /** After the name: a reviewer's state. */
  detail?: (person: Person) => ReactNode;
  editable: boolean;
  /** The write `onChange` sends: its controls wait for it, its refusal shows below. */
  write: UncertainSignal & { status: WriteStatus; error: Error | null; isPending: boolean };
  onChange: (ids: number[], done: () => void) => void;
  /** "Find a project member to assign" */
  searchLabel: string;
  /** "Members to assign" */
  candidatesLabel: string;
  /** "Unassign Alice" */
  removeLabel: (person: Person) => string;
  /** "Assign Alice (@alice)" */
  pickLabel: (person: Person) => string;
}) {
  const { projectId, people, editable, onChange } = props;
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const members = useQuery({
    ...membersQueries.list(connection, { project: projectId }, 'all', { query: search || undefined, page: 1, per_page: 10 }),
    enabled: editable && search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
  const ids = people.map((person) => person.id);
  const change = (next: number[]) => onChange(next, emptyIfSent(setSearch, search));
  return (
    <ChipsAndSearch
      title={props.title}
      chips={people.map((person) => ({
        key: String(person.id),
        text: (
          <>
            {person.name} <span className="muted">@{person.username}</span>
            {props.detail?.(person)}
          </>
        ),
        removeLabel: props.removeLabel(person),
        onRemove: () => change(ids.filter((id) => id !== person.id)),
      }))}
      editable={editable}
      pending={props.write.isPending}
      search={search}
      onSearch={setSearch}
      searchLabel={props.searchLabel}
      placeholder="Name or username"
      candidatesLabel={props.candidatesLabel}
      candidates={members.data?.items
        .filter((member) => !ids.includes(member.id))
        .map((member) => ({ key: String(member.id), label: props.pickLabel(member), onPick: () => change([...ids, member.id]) }))}
      searchError={members.error}
      noMatch={`No other project member matches “${search}”.`}
      outcome={<WriteOutcome write={props.write} />}
    />
  );
}
