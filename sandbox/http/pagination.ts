import type { Context } from 'hono';
import type { ParamReader } from './params.ts';
import { HttpError } from './errors.ts';

/** The platform stops counting above this many records and omits the totals (spec 1, 8.1). */
export const COUNT_LIMIT = 10_000;
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/** `page` (default 1) and `per_page` (default 20, at most 100), clamped as the platform does. */
export function pageRequest(params: ParamReader): PageRequest {
  const rawPage = params.int('page') ?? 1;
  const rawPerPage = params.int('per_page') ?? DEFAULT_PER_PAGE;
  const page = rawPage < 1 ? 1 : rawPage;
  const perPage = rawPerPage < 1 ? DEFAULT_PER_PAGE : Math.min(rawPerPage, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The request's own URL with some query parameters replaced, absolute, as Link headers need. */
export function selfUrl(c: Context, replace: Record<string, string | number | undefined>): string {
  const url = new URL(c.req.url);
  const forwardedHost = c.req.header('x-forwarded-host');
  const forwardedProto = c.req.header('x-forwarded-proto');
  if (forwardedHost) url.host = forwardedHost.split(',')[0].trim();
  if (forwardedProto) url.protocol = `${forwardedProto.split(',')[0].trim()}:`;
  for (const [key, value] of Object.entries(replace)) {
    if (value === undefined) url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/**
 * Sets `Link` (prev, next, first, last) and the six `x-*` headers. A null total means the
 * count passed COUNT_LIMIT: `x-total`, `x-total-pages` and `rel="last"` are left out.
 */
export function setPageHeaders(c: Context, request: PageRequest, total: number | null, hasMore: boolean): void {
  const { page, perPage } = request;
  const totalPages = total === null ? null : Math.max(1, Math.ceil(total / perPage));
  // past the last page the platform (Kaminari) names neither a previous nor a next page
  const outOfRange = totalPages !== null && page > totalPages;
  const nextPage = !outOfRange && (totalPages === null ? hasMore : page < totalPages) ? page + 1 : null;
  const prevPage = page > 1 && !outOfRange ? page - 1 : null;
  const links: string[] = [];
  const link = (target: number, rel: string) =>
    links.push(`<${selfUrl(c, { page: target, per_page: perPage })}>; rel="${rel}"`);
  if (prevPage) link(prevPage, 'prev');
  if (nextPage) link(nextPage, 'next');
  link(1, 'first');
  if (totalPages !== null) link(totalPages, 'last');
  c.header('Link', links.join(', '));
  c.header('x-page', String(page));
  c.header('x-per-page', String(perPage));
  c.header('x-next-page', nextPage ? String(nextPage) : '');
  c.header('x-prev-page', prevPage ? String(prevPage) : '');
  if (total !== null) {
    c.header('x-total', String(total));
    c.header('x-total-pages', String(totalPages));
  }
}

/** Answers one page of an in-memory list with the pagination headers. */
export function pageOfArray<T>(c: Context, params: ParamReader, items: readonly T[]): T[] {
  const request = pageRequest(params);
  const slice = items.slice(request.offset, request.offset + request.perPage);
  const hasMore = items.length > request.offset + request.perPage;
  setPageHeaders(c, request, items.length > COUNT_LIMIT ? null : items.length, hasMore);
  return slice;
}

/**
 * Answers one page of a SQL list. `count` receives the row cap and returns at most cap + 1 so
 * large tables are never counted in full.
 */
export function pageOfQuery<T>(
  c: Context,
  params: ParamReader,
  query: { count: (cap: number) => number; rows: (limit: number, offset: number) => T[] },
  options: { maxOffset?: { limit: number; message: string } } = {},
): T[] {
  const request = pageRequest(params);
  // the platform checks the per_page that was asked for, before it is capped at 100
  const askedPerPage = params.int('per_page') ?? DEFAULT_PER_PAGE;
  if (options.maxOffset && request.page * Math.max(askedPerPage, 1) > options.maxOffset.limit) {
    throw new HttpError(405, { error: options.maxOffset.message });
  }
  // one row more than the page tells whether a next page exists when the total is not counted
  const rows = query.rows(request.perPage + 1, request.offset);
  const hasMore = rows.length > request.perPage;
  const counted = query.count(COUNT_LIMIT);
  setPageHeaders(c, request, counted > COUNT_LIMIT ? null : counted, hasMore);
  return rows.slice(0, request.perPage);
}

/** Keyset pages: only `rel="next"` is sent, and only while more rows follow (spec 1, 8.4). */
export function setKeysetNext(c: Context, next: Record<string, string | number> | null): void {
  if (next) c.header('Link', `<${selfUrl(c, next)}>; rel="next"`);
}
