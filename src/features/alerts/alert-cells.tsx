import { ALERT_STATUS_LABELS, type AlertStatus } from '../../api/alerts.ts';

const SEVERITY_ICONS: Readonly<Record<string, string>> = { CRITICAL: '⬣', HIGH: '▲', MEDIUM: '◆', LOW: '▼', INFO: 'ℹ', UNKNOWN: '?' };

/** A severity as text with an icon beside it (the icon is decoration: the word carries the meaning). */
export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  const value = (severity ?? 'UNKNOWN').toUpperCase();
  const label = value.charAt(0) + value.slice(1).toLowerCase();
  return (
    <span className={`badge${value === 'CRITICAL' || value === 'HIGH' ? ' badge--warning' : ''}`}>
      <span aria-hidden="true">{SEVERITY_ICONS[value] ?? '?'} </span>
      {label}
    </span>
  );
}

export function statusLabel(status: string | null | undefined): string {
  return ALERT_STATUS_LABELS[(status ?? '') as AlertStatus] ?? status ?? 'Unknown';
}
