import { CursorPages } from '../../components/paginator.tsx';
import { formatCountOf } from '../../lib/numbers.ts';

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
  return (
    <CursorPages
      label={label}
      empty={!shown}
      back={{ to: first ? undefined : (previous) => ({ ...previous, cursor: undefined }), rel: 'first', text: 'First page' }}
      next={nextCursor ? (previous) => ({ ...previous, cursor: nextCursor }) : undefined}
    >
      <p className="paginator__summary" role="status" aria-label={`Shown: ${formatCountOf(shown, 'issue', 'issues')}`}>
        {`${formatCountOf(shown, 'issue', 'issues')}${first ? '' : ' (a later page)'}`}
      </p>
    </CursorPages>
  );
}
