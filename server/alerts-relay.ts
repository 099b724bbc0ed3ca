/**
 * The alert relay: the platform's alert endpoints live outside /api and answer no CORS, so the
 * console's tester posts to `POST /-/alerts-relay` on its own origin and this forwards the payload
 * to the connected instance (the mounted sandbox, or `--target`). It forwards ONLY to alert paths
 * (spec 3, 4.9): `/<project path>/alerts/notify.json`, `/<project path>/alerts/notify/<name>/<id>.json`
 * and `/<project path>/prometheus/alerts/notify.json`, with a size limit. The integration's key
 * travels in the Authorization header only; nothing here logs it.
 *
 * Request: the payload as the body, `X-Alert-Path: <alert path>`, `Authorization: Bearer <key>` or
 * `Basic <base64(:key)>`. Answer: 200 `{ status, contentType, body }` with what the instance said,
 * or the relay's own refusal (400, 413, 502) as `{ message }`. The custom header makes a cross-site
 * post a CORS preflight, which this answers with nothing, so only the console's own page can relay.
 */

export const ALERT_PATH_HEADER = 'X-Alert-Path';
/** Above the platform's 1 MB payload limit, so the instance's own 413 is what the tester sees. */
export const DEFAULT_RELAY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface AlertsRelayOptions {
  /** Where the alert path goes: the sandbox's handler, or a fetch to the target instance. */
  forward: (request: Request) => Response | Promise<Response>;
  limitBytes?: number;
}

// the project path (namespace segments and the project's), then one of the three alert endpoints
const ALERT_PATH = /^\/((?:[A-Za-z0-9_][A-Za-z0-9_.-]*\/){2,})(?:alerts\/notify\.json|alerts\/notify\/[A-Za-z0-9_-]+\/[A-Za-z0-9]+\.json|prometheus\/alerts\/notify\.json)$/;

/** Whether `path` is one of the instance's alert ingestion paths (no query, no dot segments, no encoding tricks). */
export function isAlertPath(path: string): boolean {
  const match = path.length <= 1024 ? ALERT_PATH.exec(path) : null;
  if (!match) return false;
  // `.git`/`.atom` endings and trailing dots are other platform routes, never a project path
  return match[1].split('/').slice(0, -1).every((segment) => !/(\.git|\.atom|\.)$/.test(segment));
}

function refuse(status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { 'Cache-Control': 'no-store' } });
}

/** The body up to `limit` bytes, or null when it is longer (reading stops there). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export async function relayAlert(request: Request, options: AlertsRelayOptions): Promise<Response> {
  const limit = options.limitBytes ?? DEFAULT_RELAY_LIMIT_BYTES;
  if (request.method !== 'POST') return refuse(405, 'The alert relay takes POST only.');
  const path = request.headers.get(ALERT_PATH_HEADER) ?? '';
  if (!isAlertPath(path)) return refuse(400, 'The alert relay forwards only to alert endpoints: /<project path>/alerts/notify.json, /<project path>/alerts/notify/<name>/<id>.json or /<project path>/prometheus/alerts/notify.json.');
  const authorization = request.headers.get('authorization');
  if (authorization !== null && !/^(Bearer|Basic) \S+$/.test(authorization)) return refuse(400, 'The alert relay sends a key as Bearer or Basic only.');
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return refuse(413, `The payload is larger than the relay's limit of ${limit} bytes.`);
  const body = await readLimited(request, limit);
  if (body === null) return refuse(413, `The payload is larger than the relay's limit of ${limit} bytes.`);
  const headers = new Headers({ 'Content-Type': request.headers.get('content-type') ?? 'application/json', Accept: 'application/json' });
  if (authorization) headers.set('Authorization', authorization);
  const origin = new URL(request.url).origin;
  let upstream: Response;
  try {
    upstream = await options.forward(new Request(`${origin}${path}`, { method: 'POST', headers, body }));
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return refuse(502, `The instance did not answer (${reason}).`);
  }
  const text = await upstream.text();
  const contentType = upstream.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (contentType.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
  }
  return Response.json({ status: upstream.status, contentType, body: parsed }, { headers: { 'Cache-Control': 'no-store' } });
}

/** A `forward` to `target` (an instance URL, maybe with a path prefix), keeping the path as given. */
export function forwardTo(target: string): (request: Request) => Promise<Response> {
  const base = new URL(target);
  const prefix = `${base.origin}${base.pathname.replace(/\/$/, '')}`;
  return async (request) => {
    const url = new URL(request.url);
    return fetch(`${prefix}${url.pathname}`, { method: 'POST', headers: request.headers, body: await request.arrayBuffer(), redirect: 'manual' });
  };
}
