/** A CSV cell: text as is, numbers and booleans as written, null and undefined as empty. */
export type CsvValue = string | number | boolean | null | undefined;

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header row, then one record per row, each line ended by CRLF (RFC 4180, 2.1). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
