import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono, type MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { acceptsEncoding, compressJson } from '../sandbox/http/compress.ts';
import { securityHeaders } from './security.ts';
import { routePreloads, withPreloads, type Manifest } from './route-preloads.ts';
import { forwardTo, isAlertPath, relayAlert } from './alerts-relay.ts';

// headers that describe one hop and must not be forwarded by a proxy
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

export interface ServerOptions {
  /** The sandbox's fetch handler, mounted at /api/v4, /api/graphql and /-/sandbox. */
  sandboxFetch?: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** An instance to proxy /api/v4 to instead of the sandbox, e.g. https://gitlab.example.com */
  target?: string;
  /** The built console (vite build output); served with index.html for every other path. */
  distDir?: string;
  /** The alert relay's payload limit in bytes (alerts-relay.ts). */
  alertsRelayLimitBytes?: number;
}

/** Forwards the request to the target with its path untouched, so `%2F` stays encoded. */
async function proxy(request: Request, target: string): Promise<Response> {
  const incoming = new URL(request.url);
  const rawPath = request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2));
  const upstreamUrl = new URL(target);
  const destination = `${upstreamUrl.origin}${upstreamUrl.pathname.replace(/\/$/, '')}${rawPath}`;
  const headers = new Headers(request.headers);
  for (const name of HOP_BY_HOP) headers.delete(name);
  // fetch asks for the encodings it can decode; the browser's list may hold one it cannot (zstd)
  headers.delete('accept-encoding');
  headers.set('x-forwarded-host', incoming.host);
  headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''));
  try {
    const upstream = await fetch(destination, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer(),
      redirect: 'manual',
    });
    const answer = new Headers(upstream.headers);
    for (const name of HOP_BY_HOP) answer.delete(name);
    // the instance's own absolute links (next pages, redirects) come back through this server
    const upstreamBase = `${upstreamUrl.origin}${upstreamUrl.pathname.replace(/\/$/, '')}/api/v4`;
    for (const name of ['link', 'location']) {
      const value = answer.get(name);
      if (value) answer.set(name, value.replaceAll(upstreamBase, `${incoming.origin}/api/v4`));
    }
    // fetch already decoded the body
    answer.delete('content-encoding');
    return new Response(upstream.body, { status: upstream.status, headers: answer });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return Response.json({ message: `502 Bad Gateway - ${upstreamUrl.origin} did not answer (${reason})` }, { status: 502 });
  }
}

/** Cache-Control on a file the next handler served; set on its answer (serveStatic's onFound comes too late for app.request). */
function cacheWhenFound(value: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set('Cache-Control', value);
  };
}

/**
 * The security headers on every answer of the console itself (its page and files). A hashed
 * script or stylesheet is never a document: the document-only headers (the policy, the opener
 * policy) and Last-Modified (an immutable file is never revalidated) would be some 400 bytes on
 * each of the dozens of chunks a screen loads, and do nothing there.
 */
function secured(headers: Readonly<Record<string, string>>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const hashedFile = c.res.status === 200 && c.req.path.startsWith('/assets/') && /\.(?:js|css)$/.test(c.req.path);
    for (const [name, value] of Object.entries(headers)) {
      if (!hashedFile || !DOCUMENT_ONLY_HEADERS.has(name)) c.res.headers.set(name, value);
    }
    if (hashedFile) c.res.headers.delete('Last-Modified');
  };
}

const DOCUMENT_ONLY_HEADERS = new Set(['Content-Security-Policy', 'Cross-Origin-Opener-Policy']);

type PageVariants = Array<{ encoding: string | null; body: Buffer }>;

/**
 * index.html in memory, plain and compressed, for each route: with its chunks to preload. The meta
 * policy the build wrote is for static hosts: here the header is the policy, and two policies would
 * both apply (the meta one refusing the --target instance's http images).
 */
function pages(distDir: string): (pathname: string) => PageVariants {
  const template = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8').replace(/\s*<!--[^>]*-->\s*(?=<meta http-equiv="Content-Security-Policy")/, '\n    ').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/, '');
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const preloads = fs.existsSync(manifestPath) ? routePreloads(JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest) : undefined;
  const variants = new Map<string, PageVariants>();
  return (pathname) => {
    const files = preloads?.forPath(pathname) ?? [];
    const key = files.join(' ');
    let page = variants.get(key);
    if (!page) {
      const html = Buffer.from(withPreloads(template, files));
      page = [
        { encoding: 'br', body: zlib.brotliCompressSync(html) },
        { encoding: 'gzip', body: zlib.gzipSync(html, { level: zlib.constants.Z_BEST_COMPRESSION }) },
        { encoding: null, body: html },
      ];
      variants.set(key, page);
    }
    return page;
  };
}

/** The product's single server: the console's files plus the API (sandbox or proxied instance). */
export function createServerApp(options: ServerOptions) {
  const app = new Hono();
  if (options.target) {
    const target = options.target;
    app.all('/api/v4/*', compressJson(), (c) => proxy(c.req.raw, target));
    // the platform's GraphQL endpoint beside the REST API (the run form's CI variables, a job being stuck, the graph's needs)
    app.all('/api/graphql', compressJson(), (c) => proxy(c.req.raw, target));
    // the tester's alerts go to the instance's alert endpoints, which answer no CORS
    const forward = forwardTo(target);
    app.all('/-/alerts-relay', (c) => relayAlert(c.req.raw, { forward, limitBytes: options.alertsRelayLimitBytes }));
  } else if (options.sandboxFetch) {
    const sandboxFetch = options.sandboxFetch;
    // the Node bindings pass through so the sandbox's dropped-connection fault can reach the socket
    app.all('/api/v4/*', (c) => sandboxFetch(c.req.raw, c.env));
    app.all('/api/graphql', (c) => sandboxFetch(c.req.raw, c.env));
    app.all('/-/sandbox/*', (c) => sandboxFetch(c.req.raw, c.env));
    app.all('/-/alerts-relay', (c) => relayAlert(c.req.raw, { forward: (request) => sandboxFetch(request), limitBytes: options.alertsRelayLimitBytes }));
    // the integrations' URLs are on this origin: a monitoring tool posting to one reaches the sandbox's ingestion
    app.post('*', (c, next) => (isAlertPath(c.req.path) ? sandboxFetch(c.req.raw, c.env) : next()));
  }
  const distDir = options.distDir;
  if (distDir && fs.existsSync(path.join(distDir, 'index.html'))) {
    const root = path.relative(process.cwd(), distDir) || '.';
    app.use('*', secured(securityHeaders(options.target ? new URL(options.target).origin : undefined)));
    // hashed files never change: kept for a year, in the best encoding the browser takes
    app.use('/assets/*', cacheWhenFound('public, max-age=31536000, immutable'), serveStatic({ root, precompressed: true }));
    // an asset that is not there (an old build's chunk) is a 404, not the page in its place
    app.get('/assets/*', (c) => c.json({ error: '404 Not Found' }, 404));
    // the browser asks for the icon again at each in-app navigation: answer from its cache
    app.use('/favicon.png', cacheWhenFound('public, max-age=86400'), serveStatic({ root }));
    // index.html too is the page below, never the file with its static-host policy
    const files = serveStatic({ root, precompressed: true });
    app.use('*', (c, next) => (c.req.path === '/' || c.req.path === '/index.html' ? next() : files(c, next)));
    // every console route is the single page
    const pageFor = pages(distDir);
    app.get('*', (c) => {
      const accepted = c.req.header('accept-encoding');
      const variant = pageFor(c.req.path).find(({ encoding }) => encoding === null || acceptsEncoding(accepted, encoding))!;
      c.header('Vary', 'Accept-Encoding');
      if (variant.encoding) c.header('Content-Encoding', variant.encoding);
      return c.body(new Uint8Array(variant.body), 200, { 'Content-Type': 'text/html; charset=UTF-8' });
    });
  }
  app.notFound((c) => c.json({ error: '404 Not Found' }, 404));
  return app;
}
