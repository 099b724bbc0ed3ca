/** A status as the platform's UI names it, with a symbol: never told by colour alone. */
const STATUSES: Record<string, { label: string; symbol: string; tone: string }> = {
  success: { label: 'Passed', symbol: '✓', tone: 'success' },
  failed: { label: 'Failed', symbol: '✕', tone: 'danger' },
  running: { label: 'Running', symbol: '◔', tone: 'info' },
  pending: { label: 'Pending', symbol: '◷', tone: 'warning' },
  preparing: { label: 'Preparing', symbol: '◷', tone: 'warning' },
  waiting_for_resource: { label: 'Waiting for resource', symbol: '◷', tone: 'warning' },
  waiting_for_callback: { label: 'Waiting for callback', symbol: '◷', tone: 'warning' },
  created: { label: 'Created', symbol: '○', tone: 'neutral' },
  canceling: { label: 'Canceling', symbol: '⊘', tone: 'neutral' },
  canceled: { label: 'Canceled', symbol: '⊘', tone: 'neutral' },
  skipped: { label: 'Skipped', symbol: '»', tone: 'neutral' },
  manual: { label: 'Manual', symbol: '▶', tone: 'neutral' },
  scheduled: { label: 'Delayed', symbol: '⏲', tone: 'neutral' },
};

/** How a status shows: its words, its symbol and its tone (a job allowed to fail is a warning, not a failure). */
export function statusLook(status: string, allowFailure = false): { label: string; symbol: string; tone: string } {
  const known = STATUSES[status];
  if (status === 'failed' && allowFailure) return { label: 'Failed (allowed to fail)', symbol: '!', tone: 'warning' };
  return { label: known?.label ?? status.replace(/_/g, ' '), symbol: known?.symbol ?? '•', tone: known?.tone ?? 'neutral' };
}

/** A job's or pipeline's status: symbol and words. */
export function StatusBadge({ status, allowFailure = false }: { status: string; allowFailure?: boolean }) {
  const look = statusLook(status, allowFailure);
  return (
    <span className={`status-badge status-badge--${look.tone}`}>
      <span aria-hidden="true" className="status-badge__symbol">
        {look.symbol}
      </span>
      {look.label}
    </span>
  );
}
