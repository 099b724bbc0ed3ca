import type { DeployKey } from '../../api/deploy-keys.ts';
import { daysUntil, formatDate } from '../../lib/time.ts';
import { formatCountOf } from '../../lib/numbers.ts';

/** SHA256 first (what `ssh-keygen -l` prints today), MD5 below when the instance sends it. */
export function Fingerprints({ deployKey }: { deployKey: DeployKey }) {
  return (
    <div>
      {deployKey.fingerprint_sha256 ? <code aria-label={`SHA256 fingerprint ${deployKey.fingerprint_sha256}`}>{deployKey.fingerprint_sha256}</code> : null}
      {deployKey.fingerprint ? (
        <div className="muted">
          <code aria-label={`MD5 fingerprint ${deployKey.fingerprint}`}>MD5:{deployKey.fingerprint}</code>
        </div>
      ) : null}
    </div>
  );
}

export function Expiry({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">Never</span>;
  const days = daysUntil(value);
  return (
    <span className={days <= 7 ? 'expiry--soon' : undefined}>
      <time dateTime={value}>{formatDate(value)}</time>
      {days < 0 ? ' (expired)' : days <= 7 ? ` (in ${formatCountOf(days, 'day', 'days')})` : ''}
    </span>
  );
}
