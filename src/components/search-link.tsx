import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { EmptyState } from './states.tsx';

type SearchUpdate = (previous: Record<string, unknown>) => Record<string, unknown>;

interface SearchLinkProps {
  /** The new search params from the current ones: a page, a tab. */
  search: SearchUpdate;
  /** Marks this link as the one in view (a tab), even when other params differ. */
  current?: boolean;
  className?: string;
  rel?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * A link to this screen with other search params. The router's own "active" test matches a
 * link whose params are a subset of the URL's, so every link that drops a default (page 1, the
 * first tab) would look current: here only an exact match, or `current`, is.
 */
export function SearchLink({ search, current, className, children, ...rest }: SearchLinkProps) {
  return (
    <Link
      to="."
      search={search as never}
      activeOptions={{ exact: true, includeSearch: true }}
      inactiveProps={{ 'aria-current': current ? 'page' : undefined } as never}
      className={className}
      {...rest}
    >
      {children}
    </Link>
  );
}

/**
 * Tabs over one search param (a state, a scope): each a SearchLink that sets `param` to its value
 * and starts again at page 1, clearing `reset` (a cursor); `badge` adds a count beside a label.
 */
export function SearchTabs<V extends string>({ label, param, tabs, current, reset = [], badge }: {
  label: string;
  param: string;
  tabs: ReadonlyArray<{ value: V; label: string }>;
  current: V;
  reset?: readonly string[];
  badge?: (value: V) => ReactNode;
}) {
  return (
    <nav aria-label={label} className="tabs">
      {tabs.map((tab) => (
        <SearchLink
          key={tab.value}
          search={(previous) => ({ ...previous, [param]: tab.value, page: 1, ...Object.fromEntries(reset.map((name) => [name, undefined])) })}
          current={current === tab.value}
          className="tabs__tab"
        >
          {tab.label}
          {badge?.(tab.value)}
        </SearchLink>
      ))}
    </nav>
  );
}

/**
 * An empty list. When filters hid everything it says so and links to the list without them
 * (`clear` keeps what is not a filter, e.g. the tab); otherwise it says what is empty.
 */
export function FilteredEmptyState({
  filtered, filteredTitle, emptyTitle, clear = () => ({}), clearLabel = 'Clear the filters',
}: { filtered: boolean; filteredTitle: string; emptyTitle: string; clear?: SearchUpdate; clearLabel?: string }) {
  return (
    <EmptyState title={filtered ? filteredTitle : emptyTitle}>
      {filtered ? (
        <SearchLink search={clear} className="button">
          {clearLabel}
        </SearchLink>
      ) : null}
    </EmptyState>
  );
}
