import { useEffect, useState, useSyncExternalStore } from 'react';
import { rateLimitStore } from '../api/rate-limit.ts';
import { formatCount } from '../lib/numbers.ts';


/**
 * The instance's request budget, where it lets the browser read it (same origin, the --target
 * proxy, or CORS-exposed headers), and, while a throttled read waits for its retry, a status
 * that says so. Writes are never retried, so they show their own error instead.
 */
export function RateLimitStatus() {
  const { budget, retry } = useSyncExternalStore(rateLimitStore.subscribe, rateLimitStore.get);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    const left = retry ? retry.at - Date.now() : 0;
    setWaiting(left > 0);
    if (left <= 0) return;
    const timer = setTimeout(() => setWaiting(false), left);
    return () => clearTimeout(timer);
  }, [retry]);
  return (
    <div className="rate-limit">
      {budget ? (
        <span className="muted" title="The instance's rate limit for this token, reset every minute">
          {formatCount(budget.remaining)} of {formatCount(budget.limit)} API requests left this minute
        </span>
      ) : null}
      {/* a live region exists before its text, so screen readers announce the text when it comes */}
      <span role="status" className={waiting ? 'notice' : 'sr-only'}>
        {waiting && retry ? `Rate limited by the instance; retrying in ${retry.seconds} s` : ''}
      </span>
    </div>
  );
}
