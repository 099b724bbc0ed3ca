import { RUNNER_STATUSES, RUNNER_TYPES, type Runner } from '../../api/runners.ts';
import { driftLabel, versionDrift } from './version-drift.ts';

export const typeLabel = (type: string) => RUNNER_TYPES.find((item) => item.value === type)?.label ?? type;

/** The platform's REST status reads `paused` for a paused runner; the badge says both things apart. */
export function RunnerStatus({ runner }: { runner: Pick<Runner, 'status' | 'paused' | 'online'> }) {
  const status = runner.status === 'paused' ? (runner.online ? 'online' : runner.online === false ? 'offline' : 'never_contacted') : runner.status;
  const label = RUNNER_STATUSES.find((item) => item.value === status)?.label ?? status;
  return (
    <span className="nowrap">
      <span className={`badge${status === 'online' ? ' state-badge--active' : status === 'stale' ? ' badge--warning' : ''}`}>{label}</span>
      {runner.paused ? <span className="badge badge--warning"> Paused</span> : null}
    </span>
  );
}

/** A version with a drift badge when its major.minor is behind the reference. */
export function RunnerVersion({ version, reference }: { version: string | null | undefined; reference: [number, number] | null }) {
  if (!version) return <span className="muted">Unknown</span>;
  const label = driftLabel(versionDrift(version, reference), reference);
  return (
    <span className="nowrap">
      {version}
      {label ? (
        <>
          {' '}
          <span className="badge badge--warning">{label}</span>
        </>
      ) : null}
    </span>
  );
}
