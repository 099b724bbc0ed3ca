/** A CSV cell: text as is, numbers and booleans as written, null and undefined as empty. */
export type CsvValue = string | number | boolean | null | undefined;

// OWASP "CSV Injection": a spreadsheet runs a cell starting with one of these as a formula
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
 * Text a spreadsheet would run as a formula gets a leading `'` and is quoted, as OWASP advises;
 * numbers are ours, not user text, so `-3` stays a number.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header row, then one record per row, each line ended by CRLF (RFC 4180, 2.1). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
