/**
 * Alert ingestion outside `/api/v4`, on the platform's paths (spec 3, 4.9 and 5):
 * `/<project path>/alerts/notify/<name>/<endpoint id>.json` (an HTTP endpoint),
 * `/<project path>/alerts/notify.json` (the legacy default endpoint) and
 * `/<project path>/prometheus/alerts/notify.json` (the metrics format).
 * The key comes as `Authorization: Bearer <key>` or Basic with an empty user and the key as the
 * password. No CORS: the platform answers none there (the console relays through its server).
 * One transaction per request: a 200 means every alert and event of the payload is committed.
 */
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv, Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import type { AlertPayloadFormat } from '../../src/lib/alert-mapping.ts';
import { ingestMapped, LEGACY_IDENTIFIER, mapForIntegration, type IntegrationRow } from '../alerts/store.ts';

/** The platform's payload application limit (Gitlab::Utils::DeepSize: 1 MB). */
export const DEFAULT_ALERT_PAYLOAD_MAX_BYTES = 1024 * 1024;

const PATHS: ReadonlyArray<{ pattern: RegExp; format: AlertPayloadFormat }> = [
  { pattern: /^\/(.+?)\/prometheus\/alerts\/notify\.json$/, format: 'prometheus' },
  { pattern: /^\/(.+?)\/alerts\/notify\/([^/]+)\/([^/]+)\.json$/, format: 'http' },
  { pattern: /^\/(.+?)\/alerts\/notify\.json$/, format: 'http' },
];

/** The key of a request: Bearer, or Basic with an empty user name; null when neither. */
export function alertKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon !== 0) return null;
  return decoded.slice(1) || null;
}

function sameKey(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function answer(c: Context<AppEnv>, status: 400 | 401 | 403 | 404 | 413 | 422, message: string): Response {
  return c.json({ message }, status);
}

function integrationFor(sandbox: Sandbox, project: ProjectRow, format: AlertPayloadFormat, identifier: string | undefined): IntegrationRow | undefined {
  const { db } = sandbox;
  if (format === 'prometheus') {
    return db.prepare("SELECT * FROM alert_integrations WHERE project_id = ? AND type = 'prometheus' ORDER BY id LIMIT 1").get(project.id) as IntegrationRow | undefined;
  }
  // HttpIntegrationsFinder by endpoint identifier; the default endpoint is the legacy integration's
  return db.prepare("SELECT * FROM alert_integrations WHERE project_id = ? AND type = 'http' AND endpoint_identifier = ?").get(project.id, identifier ?? LEGACY_IDENTIFIER) as IntegrationRow | undefined;
}

async function notify(c: Context<AppEnv>, sandbox: Sandbox, format: AlertPayloadFormat, projectPath: string, identifier: string | undefined): Promise<Response> {
  const project = sandbox.db.prepare('SELECT * FROM projects WHERE path_with_namespace = ? COLLATE NOCASE').get(projectPath) as ProjectRow | undefined;
  if (!project) return c.json({ error: '404 Not Found' }, 404);
  const limit = sandbox.config.alertPayloadMaxBytes ?? DEFAULT_ALERT_PAYLOAD_MAX_BYTES;
  const tooLarge = `The payload is larger than the limit of ${limit} bytes.`;
  if (Number(c.req.header('content-length') ?? 0) > limit) return answer(c, 413, tooLarge);
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength > limit) return answer(c, 413, tooLarge);
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    return answer(c, 400, 'Bad Request: the body is not valid JSON.');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return answer(c, 400, 'Bad Request: the payload must be a JSON object.');
  const integration = integrationFor(sandbox, project, format, identifier);
  return sandbox.db.transaction(() => {
    const mapped = mapForIntegration(sandbox, integration ?? null, format, payload);
    // the metrics service refuses a payload without the Alertmanager envelope before it looks at the key
    if (!mapped.ok && format === 'prometheus') return answer(c, 422, mapped.message);
    if (!integration || !integration.active) return answer(c, 403, 'Forbidden: the integration is not active.');
    if (!sameKey(alertKeyOf(c.req.header('authorization')), integration.token)) return answer(c, 401, 'Unauthorized');
    if (!mapped.ok) return answer(c, 400, mapped.message);
    return c.json(ingestMapped(sandbox, project, integration, mapped).alerts, 200);
  })();
}

export function registerAlertIngestion(app: Hono<AppEnv>, sandbox: Sandbox): void {
  app.use('*', async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const pathname = decodeURIComponent(new URL(c.req.url).pathname);
    if (pathname.startsWith('/api/') || pathname.startsWith('/-/')) return next();
    for (const { pattern, format } of PATHS) {
      const match = pattern.exec(pathname);
      if (match) return notify(c, sandbox, format, match[1], format === 'http' ? match[3] : undefined);
    }
    return next();
  });
}
