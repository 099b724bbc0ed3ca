import { useState, type ReactNode } from 'react';
import { formatCount } from '../lib/numbers.ts';
import { NARROW_SCREEN, useMediaQuery } from './use-media-query.ts';

interface FoldProps {
  /** How many filters are set away from the list's defaults (`filtersSet`). */
  active: number;
  children: ReactNode;
}

/**
 * A list's filters as they are on a wide screen; on a narrow one folded under a "Filters"
 * disclosure, closed unless one is set, so the list itself is on the first screen of a phone.
 */
export function FiltersFold({ active, children }: FoldProps) {
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [open, setOpen] = useState(active > 0);
  if (!narrow) return children;
  return (
    <details className="list-filters" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{active ? `Filters (${formatCount(active)} set)` : 'Filters'}</summary>
      {children}
    </details>
  );
}

interface ListFiltersProps extends FoldProps {
  /** The search region's name, e.g. "Filter pipelines". */
  label: string;
  /** Whether the region lays its children out as one wrapping bar (else they bring their own). */
  bar?: boolean;
}

/** A list's filters in one `role="search"` region, folded on a narrow screen (`FiltersFold`). */
export function ListFilters({ label, active, bar = true, children }: ListFiltersProps) {
  return (
    <FiltersFold active={active}>
      <div className={bar ? 'filter-bar' : undefined} role="search" aria-label={label}>
        {children}
      </div>
    </FiltersFold>
  );
}
