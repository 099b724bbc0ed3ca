/**
 * A whole number with thousands separators, "12,345", written without Intl: the first Intl
 * formatter of a page loads the locale data (tens of ms at 4x CPU) inside the screen's first render.
 */
export function formatCount(value: number): string {
  if (!Number.isInteger(value)) return String(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** A count with its noun, "1 issue", "1,204 issues": `many` is the noun's plural. */
export function formatCountOf(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A size in binary units as the platform shows them, "512 B", "1.5 KiB", "23.4 MiB" (one decimal below 100). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || Math.abs(bytes) < 1024) return `${formatCount(Math.round(bytes))} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Math.abs(value) < 100 ? value.toFixed(1).replace(/\.0$/, '') : formatCount(Math.round(value));
  return `${shown} ${BYTE_UNITS[unit]}`;
}
