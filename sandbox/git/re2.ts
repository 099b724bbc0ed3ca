/**
 * RE2 patterns run as JavaScript regular expressions. RE2 has no backreferences, lookarounds,
 * atomic groups or possessive quantifiers: a pattern using them is invalid there, so it is
 * refused here too. RE2-only syntax is translated: `(?P<name>`, `\A`, `\z`, `\Q...\E`, leading
 * flag groups and POSIX classes inside brackets.
 */
export class Re2Error extends Error {}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'A-Za-z0-9', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: ' \\t', cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z', word: 'A-Za-z0-9_', xdigit: '0-9A-Fa-f',
};

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function re2ToRegExp(pattern: string): RegExp {
  let flags = '';
  let source = pattern;
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading) {
    if (leading[1].includes('U')) throw new Re2Error('ungreedy mode is not supported');
    flags = [...new Set(leading[1])].join('');
    source = source.slice(leading[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined) throw new Re2Error('trailing backslash');
      if (/[1-9]/.test(next) || next === 'k') throw new Re2Error('backreferences are not supported');
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const literal = end < 0 ? source.slice(i + 2) : source.slice(i + 2, end);
        out += escapeLiteral(literal);
        i = end < 0 ? source.length : end + 1;
        continue;
      }
      if (next === 'A' && !inClass) {
        out += '^';
        i++;
        continue;
      }
      if (next === 'z' && !inClass) {
        out += '$';
        i++;
        continue;
      }
      if (next === 'C' || next === 'Z' || next === 'G') throw new Re2Error(`\\${next} is not supported`);
      out += char + next;
      i++;
      continue;
    }
    if (inClass) {
      if (char === '[' && source[i + 1] === ':') {
        const end = source.indexOf(':]', i + 2);
        const name = end < 0 ? '' : source.slice(i + 2, end);
        const negated = name.startsWith('^');
        const expansion = POSIX_CLASSES[negated ? name.slice(1) : name];
        if (!expansion || negated) throw new Re2Error(`unknown character class [:${name}:]`);
        out += expansion;
        i = end + 1;
        continue;
      }
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += `\\${source[++i]}`;
      continue;
    }
    if (char === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2);
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
      if (rest.startsWith(':')) {
        out += '(?:';
        i += 2;
        continue;
      }
      if (rest.startsWith('<') && !rest.startsWith('<=') && !rest.startsWith('<!')) {
        out += '(?<';
        i += 2;
        continue;
      }
      throw new Re2Error('lookaround, atomic and inline flag groups are not supported');
    }
    if ((char === '+' || char === '*' || char === '?' || char === '}') && source[i + 1] === '+') {
      throw new Re2Error('possessive quantifiers are not supported');
    }
    out += char;
  }
  if (inClass) throw new Re2Error('missing ]');
  try {
    return new RegExp(out, flags);
  } catch (error) {
    throw new Re2Error((error as Error).message);
  }
}
