import { HttpError, paramError } from './errors.ts';

/** A parsed request parameter: Rack-style nesting of `name[]=` arrays and `name[k]=` hashes. */
export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

/** Splits `a[b][]` into `['a', 'b', '']`; a key without brackets is one segment. */
function keySegments(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  const pattern = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  let consumed = open;
  while ((match = pattern.exec(key)) && match.index === consumed) {
    segments.push(match[1]);
    consumed = match.index + match[0].length;
  }
  return consumed === key.length ? segments : [key];
}

const isHash = (value: ParamValue | undefined): value is { [key: string]: ParamValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// own properties only: a `__proto__[x]=` key is plain data, never a write into Object.prototype
function getOwn(hash: { [key: string]: ParamValue }, key: string): ParamValue | undefined {
  return Object.hasOwn(hash, key) ? hash[key] : undefined;
}

function setOwn(hash: { [key: string]: ParamValue }, key: string, value: ParamValue): void {
  Object.defineProperty(hash, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Rack's test whether a hash already holds the nested key `path`; a path with `[]` never matches. */
function hasPath(hash: { [key: string]: ParamValue }, path: string[]): boolean {
  let node: ParamValue | undefined = hash;
  for (const part of path) {
    if (part === '' || !isHash(node) || !Object.hasOwn(node, part)) return false;
    node = node[part];
  }
  return true;
}

function assign(target: Params, segments: string[], value: string): void {
  let node: { [key: string]: ParamValue } = target;
  for (let i = 0; i < segments.length; i++) {
    const key = segments[i];
    if (i === segments.length - 1) {
      setOwn(node, key, value);
      return;
    }
    if (segments[i + 1] === '') {
      let list = getOwn(node, key);
      if (!Array.isArray(list)) {
        list = [];
        setOwn(node, key, list);
      }
      if (i + 1 === segments.length - 1) {
        list.push(value);
        return;
      }
      // `a[][k]=` fills the last hash unless it already holds that key (Rack's rule)
      const tail = list[list.length - 1];
      if (isHash(tail) && !hasPath(tail, segments.slice(i + 2))) {
        node = tail;
      } else {
        const fresh: { [key: string]: ParamValue } = {};
        list.push(fresh);
        node = fresh;
      }
      i++; // the '' segment is consumed by the array itself
      continue;
    }
    let child = getOwn(node, key);
    if (!isHash(child)) {
      child = {};
      setOwn(node, key, child);
    }
    node = child;
  }
}

/** Parses a query string or form body (`+` is a space, `%2B` a plus) into nested params. */
export function parseParams(encoded: string): Params {
  const params: Params = {};
  if (!encoded) return params;
  for (const pair of encoded.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw paramError(`invalid %-encoding in parameter ${JSON.stringify(rawKey.slice(0, 60))}`);
    }
    assign(params, keySegments(key), value);
  }
  return params;
}

/** Typed readers over merged query and body params, answering Grape's 400s on bad values. */
export class ParamReader {
  constructor(readonly raw: Params) {}

  has(name: string): boolean {
    return this.raw[name] !== undefined && this.raw[name] !== null;
  }

  string(name: string): string | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'object') throw paramError(`${name} is invalid`);
    return String(value);
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw paramError(`${name} is missing`);
    if (value.trim() === '') throw paramError(`${name} is empty`);
    return value;
  }

  int(name: string, options: { min?: number; max?: number } = {}): number | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null || value === '') return undefined;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number)) throw paramError(`${name} is invalid`);
    if ((options.min !== undefined && number < options.min) || (options.max !== undefined && number > options.max)) {
      throw paramError(`${name} does not have a valid value`);
    }
    return number;
  }

  requiredInt(name: string, options: { min?: number; max?: number } = {}): number {
    const value = this.int(name, options);
    if (value === undefined) throw paramError(`${name} is missing`);
    return value;
  }

  /** true/false (also 1/0, case-insensitive, as Grape coerces); anything else is 400. */
  bool(name: string): boolean | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'boolean') return value;
    if (typeof value === 'object') throw paramError(`${name} is invalid`);
    const text = String(value).toLowerCase();
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
    throw paramError(`${name} is invalid`);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined || value === '') return undefined;
    if (!(values as readonly string[]).includes(value)) throw paramError(`${name} does not have a valid value`);
    return value as T;
  }

  /** Arrays arrive as `name[]=a&name[]=b`, a JSON array, or comma-separated text. */
  stringArray(name: string): string[] | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) {
      return value.map((item) => {
        if (item !== null && typeof item === 'object') throw paramError(`${name} is invalid`);
        return String(item);
      });
    }
    if (typeof value === 'object') throw paramError(`${name} is invalid`);
    const text = String(value);
    return text === '' ? [] : text.split(',').map((item) => item.trim());
  }

  /** A required, non-empty array whose every value is one of `allowed` (token scopes). */
  requiredSubset(name: string, allowed: readonly string[]): string[] {
    const values = this.stringArray(name);
    if (!values) throw paramError(`${name} is missing`);
    if (values.length === 0 || values.some((value) => !allowed.includes(value))) throw paramError(`${name} does not have a valid value`);
    return values;
  }

  intArray(name: string): number[] | undefined {
    const items = this.stringArray(name);
    if (!items) return undefined;
    return items.filter((item) => item !== '').map((item) => {
      if (!/^-?\d+$/.test(item)) throw paramError(`${name} is invalid`);
      return Number(item);
    });
  }

  /** A date `YYYY-MM-DD` that exists on the calendar. */
  date(name: string): string | undefined {
    const value = this.string(name);
    if (value === undefined || value === '') return undefined;
    if (!isCalendarDate(value)) throw paramError(`${name} is invalid`);
    return value;
  }

  /** An ISO 8601 date-time (a date alone means its midnight UTC); returned as ISO UTC. */
  dateTime(name: string): string | undefined {
    const value = this.string(name);
    if (value === undefined || value === '') return undefined;
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
    const time = Date.parse(iso);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) throw paramError(`${name} is invalid`);
    return new Date(time).toISOString();
  }
}

export type IdNoneAny = number | 'none' | 'any';

/** Grape's `types: [Integer, String]` with `integer_none_any`: an id, `None` or `Any`. */
export function idNoneAny(params: ParamReader, name: string, raw = params.raw[name]): IdNoneAny | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = typeof raw === 'object' ? '' : String(raw).trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (/^none$/i.test(text)) return 'none';
  if (/^any$/i.test(text)) return 'any';
  throw paramError(`${name} should be an integer, none or any`);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Runs Grape-style parameter checks and joins every failure into one 400, as the platform does. */
export function collectParamErrors(checks: Array<() => void>): void {
  const messages: string[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (error instanceof HttpError && 'error' in error.body) messages.push(error.body.error);
      else throw error;
    }
  }
  if (messages.length) throw paramError(messages.join(', '));
}
