import './ci-status.css';

/** A pipeline's, job's or test case's status as the platform's UI words it, and the tone its badge takes. */
const STATUS_TEXT: Record<string, { text: string; tone: 'success' | 'danger' | 'running' | 'waiting' | 'neutral' | 'manual' }> = {
  success: { text: 'Passed', tone: 'success' },
  failed: { text: 'Failed', tone: 'danger' },
  // a test case that broke rather than failed its assertion (JUnit's <error>)
  error: { text: 'Error', tone: 'danger' },
  canceled: { text: 'Canceled', tone: 'neutral' },
  canceling: { text: 'Canceling', tone: 'neutral' },
  skipped: { text: 'Skipped', tone: 'neutral' },
  running: { text: 'Running', tone: 'running' },
  pending: { text: 'Pending', tone: 'waiting' },
  created: { text: 'Created', tone: 'waiting' },
  preparing: { text: 'Preparing', tone: 'waiting' },
  waiting_for_resource: { text: 'Waiting for resource', tone: 'waiting' },
  waiting_for_callback: { text: 'Waiting for callback', tone: 'waiting' },
  scheduled: { text: 'Delayed', tone: 'waiting' },
  manual: { text: 'Manual', tone: 'manual' },
};

export function ciStatusText(status: string): string {
  return STATUS_TEXT[status]?.text ?? status.replace(/_/g, ' ');
}

/** The inner shape of each icon: the status reads from its shape and its word, never from colour alone. */
function IconShape({ status }: { status: string }) {
  switch (status) {
    case 'success':
      return <path d="M4.5 8.2l2.3 2.3 4.7-4.8" fill="none" strokeWidth="1.8" />;
    case 'failed':
      return <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" fill="none" strokeWidth="1.8" />;
    case 'error':
      return <path d="M8 4.6v4M8 11.2v.2" fill="none" strokeWidth="1.8" />;
    case 'canceled':
    case 'canceling':
      return <path d="M4.8 11.2l6.4-6.4" fill="none" strokeWidth="1.8" />;
    case 'skipped':
      return <path d="M4.5 5l3 3-3 3M8.5 5l3 3-3 3" fill="none" strokeWidth="1.5" />;
    case 'running':
      return <path d="M8 3.5a4.5 4.5 0 0 1 0 9z" stroke="none" fill="currentColor" />;
    case 'manual':
      return <path d="M6.3 5v6l4.8-3z" stroke="none" fill="currentColor" />;
    default:
      // waiting of every kind: a clock
      return <path d="M8 4.6V8l2.4 1.6" fill="none" strokeWidth="1.5" />;
  }
}

/** A status badge: icon and word, with the platform's tooltip (e.g. "passed with warnings") on hover when it sent one. */
export function CiStatusBadge({ status, tooltip }: { status: string; tooltip?: string | null }) {
  const info = STATUS_TEXT[status];
  return (
    <span className={`ci-status ci-status--${info?.tone ?? 'neutral'}`} title={tooltip ?? undefined}>
      <svg className="ci-status__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" stroke="currentColor" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="8" cy="8" r="6.8" fill="none" strokeWidth="1.4" />
        <IconShape status={status} />
      </svg>
      <span>{ciStatusText(status)}</span>
    </span>
  );
}
