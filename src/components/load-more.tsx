interface LoadMoreProps {
  /** What is loaded so far, announced politely: "120 people". */
  summary: string;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}

/** The end of a keyset list: the next page is appended, never replaces what is on screen. */
export function LoadMore({ summary, hasMore, loading, onLoadMore }: LoadMoreProps) {
  return (
    <div className="paginator">
      <p className="paginator__summary" role="status" aria-label={`Shown: ${summary}${hasMore ? '' : ', all shown'}`}>
        {summary}
        {hasMore ? '' : ', all shown'}
      </p>
      {hasMore ? (
        <button type="button" className="button" onClick={onLoadMore} disabled={loading} aria-busy={loading || undefined}>
          {loading ? 'Loading more…' : 'Load more'}
        </button>
      ) : null}
    </div>
  );
}
