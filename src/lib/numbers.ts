/**
 * A whole number with thousands separators, "12,345", written without Intl: the first Intl
 * formatter of a page loads the locale data (tens of ms at 4x CPU) inside the screen's first render.
 */
export function formatCount(value: number): string {
  if (!Number.isInteger(value)) return String(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${digits}` : digits;
}
