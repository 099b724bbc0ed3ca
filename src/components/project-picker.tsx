import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../api/projects.ts';
import { useConnection } from '../api/react.ts';
import { SearchInput } from './list-controls.tsx';
import { PickerStatus } from './picker-status.tsx';

export interface PickedProject {
  id: number;
  name: string;
}

interface ProjectPickerProps {
  legend: string;
  value: PickedProject | null;
  onChange: (project: PickedProject) => void;
  /** Every project of the instance (an administrator), rather than the caller's. */
  everywhere: boolean;
  /** Only the caller's projects where their role is at least this (ignored with `everywhere`). */
  minAccessLevel?: number;
  /** Projects not to offer (where the thing already is). */
  excluded: readonly number[];
  /** Said when no project is left to offer and nothing is searched for. */
  noneLeft: string;
}

/** Picks one project by search among the caller's; a radio group, so it works by keyboard and reads well. */
export function ProjectPicker({ legend, value, onChange, everywhere, minAccessLevel, excluded, noneLeft }: ProjectPickerProps) {
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const projects = useQuery({ ...projectsQueries.search(connection, search, everywhere, minAccessLevel), placeholderData: keepPreviousData });
  const name = useId();
  const offered = (projects.data?.items ?? []).filter((project) => !excluded.includes(project.id));
  return (
    <fieldset className="field user-picker">
      <legend className="field__label">{legend}</legend>
      <SearchInput label={everywhere ? 'Search projects' : 'Search your projects'} value={search} onSearch={setSearch} placeholder="Project name" delayMs={200} />
      <PickerStatus error={projects.error} empty={projects.data && offered.length === 0 ? (search ? `No other project matches “${search}”.` : noneLeft) : null} />
      <div className="user-picker__results" role="radiogroup" aria-label="Projects">
        {offered.map((project) => (
          <label key={project.id} className="user-picker__option">
            <input type="radio" name={name} checked={value?.id === project.id} onChange={() => onChange({ id: project.id, name: project.name_with_namespace })} />
            <span>{project.name_with_namespace}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
