import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('csvField (RFC 4180)', () => {
  it('leaves plain text alone', () => {
    expect(csvField('docker-runner-1')).toBe('docker-runner-1');
    expect(csvField(42)).toBe('42');
    expect(csvField(false)).toBe('false');
  });

  it('writes null and undefined as empty fields', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('quotes fields with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('keeps leading and trailing spaces, which are part of the field', () => {
    expect(csvField('  padded ')).toBe('  padded ');
  });
});

describe('csvField (OWASP CSV injection)', () => {
  it('neutralises text a spreadsheet would run as a formula: a leading quote, the whole cell quoted', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csvField('+1+cmd|/C calc!A0')).toBe('"\'+1+cmd|/C calc!A0"');
    expect(csvField('-2+3')).toBe('"\'-2+3"');
    expect(csvField('@SUM(A1:A9)')).toBe('"\'@SUM(A1:A9)"');
    expect(csvField('\t=1+1')).toBe('"\'\t=1+1"');
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
  });

  it('leaves those characters alone elsewhere in the text, and numbers alone', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('runner-1@host')).toBe('runner-1@host');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('toCsv', () => {
  it('ends every record, the last too, with CRLF', () => {
    expect(toCsv(['id', 'name'], [[1, 'a'], [2, 'b, c']])).toBe('id,name\r\n1,a\r\n2,"b, c"\r\n');
  });

  it('is just the header for no rows', () => {
    expect(toCsv(['id'], [])).toBe('id\r\n');
  });

  it('round-trips through a strict parser', () => {
    const rows = [[7, 'quote " comma , newline \n end', null, '=1+1']];
    const text = toCsv(['id', 'text', 'empty', 'formula'], rows);
    expect(parse(text)).toEqual([['id', 'text', 'empty', 'formula'], ['7', 'quote " comma , newline \n end', '', "'=1+1"]]);
  });
});

/** A small RFC 4180 reader, to check the writer against the grammar rather than against itself. */
function parse(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index++;
    } else field += char;
  }
  return records;
}
