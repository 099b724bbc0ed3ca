import { PageStep } from '../../components/paginator.tsx';

interface KeysetPagesProps {
  /** How many issues this page shows. */
  shown: number;
  /** Whether this is the list's first page (no cursor in the URL). */
  first: boolean;
  nextCursor: string | undefined;
  label: string;
}

/**
 * The pages of a keyset list: the first, and the next one its cursor leads to. Both are links
 * (new tabs, bookmarks); the browser's Back returns to the page before, as the platform's own
 * keyset lists do. There is no total to number pages by.
 */
export function IssueListKeysetPages({ shown, first, nextCursor, label }: KeysetPagesProps) {
  // an empty list says so itself, as the numbered paginator leaves it to
  if (!shown && first && !nextCursor) return null;
  return (
    <div className="paginator">
      <p className="paginator__summary" role="status" aria-label={`Shown: ${shown} issues`}>
        {`${shown} issues${first ? '' : ' (a later page)'}`}
      </p>
      <nav aria-label={label} className="paginator__pages">
        <PageStep to={first ? undefined : (previous) => ({ ...previous, cursor: undefined })} rel="first">
          First page
        </PageStep>
        <PageStep to={nextCursor ? (previous) => ({ ...previous, cursor: nextCursor }) : undefined} rel="next">
          Next
        </PageStep>
      </nav>
    </div>
  );
}
