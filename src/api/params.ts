/** Where an instance's REST API lives: `https://gitlab.example.com/api/v4`. */
export function apiBase(connection: { instanceUrl: string }): string {
  return `${connection.instanceUrl.replace(/\/+$/, '')}/api/v4`;
}

/** A query or form value the platform understands: scalars, `name[]=` arrays, `name[k]=` hashes. */
export type QueryValue = string | number | boolean | null | undefined | readonly QueryValue[] | { readonly [key: string]: QueryValue };
export type QueryParams = Readonly<Record<string, QueryValue>>;

/**
 * Encodes with encodeURIComponent: a space is `%20` and a `+` is `%2B` (spec 1, 4.1.6), so a
 * time-zone offset survives; `/` in values becomes `%2F`.
 */
const encode = (text: string) => encodeURIComponent(text);

function pairs(prefix: string, value: QueryValue, out: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value as readonly QueryValue[]) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
        // arrays of hashes: name[][key]=v (Rack appends a new hash when a key repeats)
        for (const [key, inner] of Object.entries(item)) pairs(`${prefix}[][${key}]`, inner, out);
      } else {
        pairs(`${prefix}[]`, item, out);
      }
    }
    return;
  }
  if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, QueryValue>)) pairs(`${prefix}[${key}]`, inner, out);
    return;
  }
  out.push(`${encode(prefix).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encode(String(value))}`);
}

/** `{ state: 'active', user_ids: [1, 2], labels: { a: 'b' } }` -> `state=active&user_ids[]=1&user_ids[]=2&labels[a]=b`. */
export function encodeQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const out: string[] = [];
  for (const [key, value] of Object.entries(params)) pairs(key, value, out);
  return out.join('&');
}

/** One path segment: a project's full path, a file path or a branch name, `/` as `%2F`. */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/**
 * Builds an API path encoding every interpolated value as one segment:
 * apiPath`/projects/${'group/app'}/members` -> `/projects/group%2Fapp/members`.
 */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((path, part, index) => path + part + (index < values.length ? pathSegment(values[index]) : ''), '');
}

/** The params without empty filters: undefined, null, '' and false say "not filtered". */
export function withoutEmpty<T extends object>(params: T): Partial<T> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== '' && value !== false)) as Partial<T>;
}

/** A path as the platform wants it: no leading, trailing or doubled `/`. */
export function normalizePath(filePath: string): string {
  return filePath.split('/').filter(Boolean).join('/');
}
