import type { ReactNode } from 'react';
import { SearchLink } from './search-link.tsx';
import type { Page } from '../api/pagination.ts';

export const PER_PAGE_OPTIONS = [20, 50, 100] as const;

interface PaginatorProps {
  page: Page<unknown>;
  /** What the list is, for the navigation's label: "Members pages". */
  label: string;
}

/** Page numbers around the current one, with gaps, when the total is known. */
function pageNumbers(current: number, last: number): Array<number | 'gap'> {
  const wanted = new Set([1, last, current - 1, current, current + 1].filter((value) => value >= 1 && value <= last));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: Array<number | 'gap'> = [];
  sorted.forEach((value, index) => {
    if (index > 0 && value - sorted[index - 1] > 1) out.push('gap');
    out.push(value);
  });
  return out;
}

type SearchUpdate = (previous: Record<string, unknown>) => Record<string, unknown>;

/** A step to another page: a link, or the same words shown disabled where there is no such page. */
function PageStep({ to, rel, children }: { to: SearchUpdate | undefined; rel: string; children: string }) {
  return to ? (
    <SearchLink search={to} className="button" rel={rel}>
      {children}
    </SearchLink>
  ) : (
    <span className="button" aria-disabled="true">
      {children}
    </span>
  );
}

/**
 * The pages of a list stepped through by cursor, with no numbers: a step back (`back`: to the
 * previous or the first page) and a step on, with `children` beside them (what the page shows).
 * An empty first page has nothing to step to and says so itself: nothing is drawn.
 */
export function CursorPages({ label, back, next, empty, children }: {
  label: string;
  back: { to: SearchUpdate | undefined; rel: string; text: string };
  next: SearchUpdate | undefined;
  empty: boolean;
  children?: ReactNode;
}) {
  if (empty && !back.to && !next) return null;
  const steps = (
    <nav aria-label={label} className="paginator__pages">
      <PageStep to={back.to} rel={back.rel}>
        {back.text}
      </PageStep>
      <PageStep to={next} rel="next">
        Next
      </PageStep>
    </nav>
  );
  return children ? (
    <div className="paginator">
      {children}
      {steps}
    </div>
  ) : (
    steps
  );
}

/**
 * Pages are links (they open in new tabs and keep every filter in the URL). Numbers when the
 * platform sent totals, previous and next alone when it did not.
 */
export function Paginator({ page, label }: PaginatorProps) {
  // an empty list says so itself: '0–0 of 0' and two dead buttons would only repeat it
  if (!page.items.length && !page.prevPage && !page.nextPage) return null;
  const withPage = (target: number) => (previous: Record<string, unknown>) => ({ ...previous, page: target });
  const summary = page.total !== undefined
    ? `${page.total === 0 ? 0 : (page.page - 1) * page.perPage + 1}–${Math.min(page.page * page.perPage, page.total)} of ${page.total}`
    : `Page ${page.page}`;
  return (
    <div className="paginator">
      <p className="paginator__summary" role="status" aria-label={`Shown: ${summary}`}>
        {summary}
      </p>
      <nav aria-label={label} className="paginator__pages">
        <PageStep to={page.prevPage ? withPage(page.prevPage) : undefined} rel="prev">
          Previous
        </PageStep>
        {page.totalPages !== undefined && page.totalPages > 1
          ? pageNumbers(page.page, page.totalPages).map((value, index) =>
              value === 'gap' ? (
                <span key={`gap-${index}`} className="paginator__gap" aria-hidden="true">
                  …
                </span>
              ) : (
                <SearchLink key={value} search={withPage(value)} current={value === page.page} className={value === page.page ? 'button button--current' : 'button'} aria-label={`Page ${value}`}>
                  {value}
                </SearchLink>
              ),
            )
          : null}
        <PageStep to={page.nextPage ? withPage(page.nextPage) : undefined} rel="next">
          Next
        </PageStep>
      </nav>
    </div>
  );
}
