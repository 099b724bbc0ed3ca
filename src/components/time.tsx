import { formatDate, formatDateTime, formatRelative } from '../lib/time.ts';

type TimeProps = {
  value: string | null | undefined;
  /** "3 hours ago" with the exact moment on hover, instead of the moment itself */
  relative?: boolean;
  /** the calendar day only (compact table cells); the exact moment is on hover */
  dateOnly?: boolean;
  /** what shows when there is no value */
  fallback?: string;
};

/** One way to show a moment: machine-readable, and its zone always within reach (shown, or on hover). */
export function Time({ value, relative = false, dateOnly = false, fallback = '' }: TimeProps) {
  if (!value) return fallback ? <span className="muted">{fallback}</span> : null;
  const exact = formatDateTime(value);
  const text = relative ? formatRelative(value) : dateOnly ? formatDate(value) : exact;
  return (
    <time dateTime={value} title={text === exact ? undefined : exact}>
      {text}
    </time>
  );
}
