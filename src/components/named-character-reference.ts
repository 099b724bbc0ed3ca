import { parseInert } from './inert-html.ts';

const decoded = new Map<string, string | false>();

/**
 * decode-named-character-reference for the browser build (vite.config.ts points the package
 * here): the package's own browser version sets innerHTML on a live element, which Trusted Types
 * refuse, and its other version carries a table of every entity (12 KB gzip). The HTML parser of
 * an inert document knows them all. Same contract: the character(s), or false for no reference.
 */
export function decodeNamedCharacterReference(value: string): string | false {
  let character = decoded.get(value);
  if (character === undefined) {
    const reference = `&${value};`;
    const text = parseInert(reference).body.textContent ?? '';
    // `&notit;` reads as `¬it;`: a reference matched only in part ends in the semicolon
    character = text === reference || (text.endsWith(';') && value !== 'semi') ? false : text;
    decoded.set(value, character);
  }
  return character;
}
