import { CiStatusBadge } from '../../components/ci-status.tsx';

/** A job's status badge; a failure the pipeline allows says so beside it (the platform's "failed with warnings"). */
export function JobStatus({ status, allowFailure = false }: { status: string; allowFailure?: boolean }) {
  const allowed = status === 'failed' && allowFailure;
  return (
    <span className="job-status">
      <CiStatusBadge status={status} tooltip={allowed ? 'Failed, allowed to fail' : undefined} />
      {allowed ? <span className="badge badge--warning">allowed to fail</span> : null}
    </span>
  );
}
