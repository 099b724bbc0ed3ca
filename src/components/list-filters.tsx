import { useState, type ReactNode } from 'react';
import { formatCount } from '../lib/numbers.ts';
import { NARROW_SCREEN, useMediaQuery } from './use-media-query.ts';

interface ListFiltersProps {
  /** The search region's name, e.g. "Filter pipelines". */
  label: string;
  /** How many filters are set away from the list's defaults (`filtersSet`). */
  active: number;
  /** Whether the region lays its children out as one wrapping bar (else they bring their own). */
  bar?: boolean;
  children: ReactNode;
}

/**
 * A list's filters, a `role="search"` region. On a narrow screen they fold under a "Filters"
 * disclosure, closed unless one is set, so the list itself is on the first screen of a phone.
 */
export function ListFilters({ label, active, bar = true, children }: ListFiltersProps) {
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [open, setOpen] = useState(active > 0);
  const region = (
    <div className={bar ? 'filter-bar' : undefined} role="search" aria-label={label}>
      {children}
    </div>
  );
  if (!narrow) return region;
  return (
    <details className="list-filters" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{active ? `Filters (${formatCount(active)} set)` : 'Filters'}</summary>
      {region}
    </details>
  );
}
