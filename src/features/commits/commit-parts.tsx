import { formatCount, formatCountOf } from '../../lib/numbers.ts';
import type { CommitStats } from '../../api/commits.ts';


/** "+12 −3": additions and deletions, read out in words. */
export function StatsText({ stats }: { stats: CommitStats }) {
  const words = `${formatCountOf(stats.additions, 'line', 'lines')} added, ${formatCount(stats.deletions)} removed`;
  return (
    <span aria-label={words} title={words} className="nowrap">
      <span style={{ color: 'var(--success, #1a7f37)' }}>+{formatCount(stats.additions)}</span>{' '}
      <span style={{ color: 'var(--danger, #cf222e)' }}>−{formatCount(stats.deletions)}</span>
    </span>
  );
}

/** Trailers as a list of terms: a key given several times keeps every value (`extended_trailers`). */
export function TrailerList({ trailers, label = 'Trailers' }: { trailers: Record<string, string[]>; label?: string }) {
  return (
    <dl className="details" aria-label={label}>
      {Object.entries(trailers).map(([key, values]) => (
        <div key={key} style={{ display: 'contents' }}>
          <dt>{key}</dt>
          <dd>
            {values.length === 1 ? (
              values[0]
            ) : (
              <ul className="link-list">
                {values.map((value, index) => (
                  <li key={index}>{value}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
