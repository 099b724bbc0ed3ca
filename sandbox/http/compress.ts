import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const gzip = promisify(zlib.gzip);

// the platform's front proxy (nginx) gzips JSON at level 2; smaller answers are not worth it
const LEVEL = 2;
const MIN_BYTES = 1024;
// a page of a list gzips in a fraction of a millisecond: at once, so its answer leaves before the next
// request's handler runs; through the thread pool, three requests sent together all waited for the
// last (a members page took 7.5 ms beside its two companions instead of 4.7). Larger answers go to the pool.
const AT_ONCE_MAX_BYTES = 64 * 1024;

/** Whether `Accept-Encoding` allows `encoding` (a listed token, or `*`, without `q=0`). */
export function acceptsEncoding(header: string | null | undefined, encoding: string): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [token, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    const allowed = q === undefined || Number(q) > 0;
    if (token === encoding) return allowed;
    if (token === '*') wildcard = allowed;
  }
  return wildcard;
}

/**
 * Gzips JSON answers of 1 KB and more when the client accepts gzip, as the platform's front
 * proxy does. Other answers (raw files, archives, plain text) pass untouched, streamed as they are.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    if (c.req.method === 'HEAD' || !response.body || response.headers.has('content-encoding')) return;
    if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? '')) return;
    const headers = new Headers(response.headers);
    // the answer depends on Accept-Encoding, so caches must keep the variants apart
    headers.append('Vary', 'Accept-Encoding');
    const body = Buffer.from(await response.arrayBuffer());
    let compressed: Buffer | null = null;
    if (body.length >= MIN_BYTES && acceptsEncoding(c.req.header('accept-encoding'), 'gzip')) {
      compressed = body.length <= AT_ONCE_MAX_BYTES ? zlib.gzipSync(body, { level: LEVEL }) : await gzip(body, { level: LEVEL });
      headers.set('Content-Encoding', 'gzip');
    }
    headers.delete('content-length');
    c.res = undefined;
    c.res = new Response(new Uint8Array(compressed ?? body), { status: response.status, statusText: response.statusText, headers });
  };
}
