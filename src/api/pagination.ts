
/** One page of an offset list; totals are absent when the platform does not count (over 10,000). */
export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total?: number;
  totalPages?: number;
  nextPage?: number;
  prevPage?: number;
  links: Partial<Record<'first' | 'prev' | 'next' | 'last', string>>;
}

/** One page of a keyset list: the next page is whatever `Link rel="next"` names. */
export interface KeysetPage<T> {
  items: T[];
  nextUrl?: string;
}

/** `<url>; rel="next", <url>; rel="last"` -> `{ next: url, last: url }`. */
export function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (!match) continue;
    const rel = /rel="?([^";]+)"?/.exec(match[2]);
    if (rel) for (const name of rel[1].trim().split(/\s+/)) links[name] = match[1];
  }
  return links;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function pageParam(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const value = Number(new URL(url).searchParams.get('page'));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the `x-*` headers, falling back to the `Link` header, then to what was asked, so a list
 * still pages when the hosted offering drops some headers.
 */
export function toPage<T>(items: T[], headers: Headers, requested: { page?: number; perPage?: number } = {}): Page<T> {
  const links = parseLinkHeader(headers.get('link'));
  const perPage = headerNumber(headers, 'x-per-page') ?? requested.perPage ?? 20;
  const page = headerNumber(headers, 'x-page') ?? requested.page ?? 1;
  const total = headerNumber(headers, 'x-total');
  const totalPages = headerNumber(headers, 'x-total-pages');
  let nextPage = headerNumber(headers, 'x-next-page') ?? pageParam(links.next);
  // without any hint, a full page suggests there may be more
  if (nextPage === undefined && !headers.has('x-next-page') && !links.next && !headers.has('link') && items.length === perPage) nextPage = page + 1;
  const prevPage = headerNumber(headers, 'x-prev-page') ?? pageParam(links.prev) ?? (page > 1 && !headers.has('x-prev-page') ? page - 1 : undefined);
  return {
    items,
    page,
    perPage,
    ...(total !== undefined ? { total } : {}),
    ...(totalPages !== undefined ? { totalPages } : {}),
    ...(nextPage !== undefined ? { nextPage } : {}),
    ...(prevPage !== undefined ? { prevPage } : {}),
    links: links as Page<T>['links'],
  };
}

export function toKeysetPage<T>(items: T[], headers: Headers): KeysetPage<T> {
  const next = parseLinkHeader(headers.get('link')).next;
  return next ? { items, nextUrl: next } : { items };
}
