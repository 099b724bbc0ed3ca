/**
 * Alert ingestion outside `/api/v4`, on the platform's paths (spec 3, 4.9 and 5):
 * `/<project path>/alerts/notify/<name>/<endpoint id>.json` (an HTTP endpoint),
 * `/<project path>/alerts/notify.json` (the legacy default endpoint) and
 * `/<project path>/prometheus/alerts/notify.json` (the metrics format).
 * The key comes as `Authorization: Bearer <key>` or Basic with an empty user and the key as the
 * password. No CORS: the platform answers none there (the console relays through its server).
 * The HTTP endpoints answer 200 with `[{iid, title}]`; the metrics format answers 201 Created
 * without a body, as the platform's metrics notify service (`created`).
 * One transaction per request: a 2xx means every alert and event of the payload is committed.
 */
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv, Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { METRICS_REQUIRED_KEYS, METRICS_VERSION, type AlertPayloadFormat } from '../../src/lib/alert-mapping.ts';
import { ingestMapped, LEGACY_IDENTIFIER, mapForIntegration, type IntegrationRow } from '../alerts/store.ts';

/** The platform's payload application limit (Gitlab::Utils::DeepSize: 1 MB). */
export const DEFAULT_ALERT_PAYLOAD_MAX_BYTES = 1024 * 1024;

/** `--alert-payload-limit` / SANDBOX_ALERT_PAYLOAD_LIMIT: a whole number of bytes from 1; undefined when not given. */
export function parseAlertPayloadLimit(text: string | undefined, fail: (message: string) => never): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) return fail(`--alert-payload-limit must be a whole number of bytes from 1, not ${JSON.stringify(text)}`);
  return Number(text);
}

const PATHS: ReadonlyArray<{ pattern: RegExp; format: AlertPayloadFormat }> = [
  { pattern: /^\/(.+?)\/prometheus\/alerts\/notify\.json$/, format: 'prometheus' },
  { pattern: /^\/(.+?)\/alerts\/notify\/([^/]+)\/([^/]+)\.json$/, format: 'http' },
  { pattern: /^\/(.+?)\/alerts\/notify\.json$/, format: 'http' },
];

export interface AlertPath {
  format: AlertPayloadFormat;
  projectPath: string;
  /** The HTTP endpoint's identifier; undefined for the legacy default endpoint and the metrics one. */
  endpointIdentifier?: string;
}

/** Which alert endpoint a (decoded) path is, if any: for ingestion here and for a relay that forwards only alert paths. */
export function matchAlertPath(pathname: string): AlertPath | null {
  if (pathname.startsWith('/api/') || pathname.startsWith('/-/')) return null;
  for (const { pattern, format } of PATHS) {
    const match = pattern.exec(pathname);
    if (match) return { format, projectPath: match[1], endpointIdentifier: format === 'http' ? match[3] : undefined };
  }
  return null;
}

/** The key of a request: Bearer, or the password of Basic (the user name, empty by the docs, is not read); null when neither. */
export function alertKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // the key is the password; the platform reads no user name (clients send an empty one)
  if (colon < 0) return null;
  return decoded.slice(colon + 1) || null;
}

/** Projects::Prometheus::Alerts::NotifyService.processable?: every key of the envelope and version 4. */
function isMetricsPayload(payload: Record<string, unknown>): boolean {
  return METRICS_REQUIRED_KEYS.every((key) => key in payload) && payload.version === METRICS_VERSION;
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
  // the HTTP endpoints hand an Alertmanager payload (its envelope, version 4) to the metrics service, as the platform's controller
  const payloadFormat: AlertPayloadFormat = format === 'http' && isMetricsPayload(payload as Record<string, unknown>) ? 'prometheus' : format;
  return sandbox.db.transaction(() => {
    const mapped = mapForIntegration(sandbox, integration ?? null, payloadFormat, payload);
    // the metrics service refuses a payload without the Alertmanager envelope before it looks at the key
    if (!mapped.ok && format === 'prometheus') return answer(c, 422, mapped.message);
    if (!integration || !integration.active) return answer(c, 403, 'Forbidden: the integration is not active.');
    if (!sameKey(alertKeyOf(c.req.header('authorization')), integration.token)) return answer(c, 401, 'Unauthorized');
    if (!mapped.ok) return answer(c, 400, mapped.message);
    const { alerts } = ingestMapped(sandbox, project, integration, mapped);
    // the metrics service stores what it can of each item and answers 201 Created without a body
    if (payloadFormat === 'prometheus') return c.body(null, 201);
    // Projects::Alerting::NotifyService: a resolving payload with no open alert stores nothing and answers `bad_request unless alert.persisted?`
    if (alerts.length === 0) return answer(c, 400, 'Bad Request: no open alert has this fingerprint to resolve.');
    return c.json(alerts, 200);
  })();
}

export function registerAlertIngestion(app: Hono<AppEnv>, sandbox: Sandbox): void {
  app.use('*', async (c, next) => {
    if (c.req.method !== 'POST') return next();
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      // a malformed escape is no alert path
      return next();
    }
    const alertPath = matchAlertPath(pathname);
    if (alertPath) return notify(c, sandbox, alertPath.format, alertPath.projectPath, alertPath.endpointIdentifier);
    return next();
  });
}
