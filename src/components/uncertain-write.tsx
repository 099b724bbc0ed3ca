import type { Write } from './use-write.ts';
import { formatClock } from '../lib/time.ts';

/** The part of a write the notice reads; any area's write fits. */
export type UncertainSignal = Pick<Write<unknown, unknown>, 'isUncertain' | 'checking' | 'checkedAt' | 'tryAgain'>;

/**
 * After a network error or a 5xx the write may have happened: says so while what it touched is
 * refetched, and offers to send it again only once the screen shows what the server holds.
 */
export function UncertainWrite({ write }: { write: UncertainSignal }) {
  if (!write.isUncertain) return null;
  if (write.checking) {
    return (
      <p className="notice" role="status">
        The request may have gone through before it failed. Checking what the server now holds…
      </p>
    );
  }
  const checkedAt = write.checkedAt === null ? '' : formatClock(write.checkedAt);
  return (
    <div className="notice" role="status">
      <p>
        The request may have gone through before it failed. What it changes was fetched again from the server at {checkedAt}: send it again only if your change is not
        there.
      </p>
      <button type="button" className="button" onClick={() => void write.tryAgain()}>
        Try again
      </button>
    </div>
  );
}
