import { sha1Hex } from './sha1.ts';

/**
 * What the platform makes of an alert payload, for both formats: the HTTP endpoint's own format
 * and the metrics (Prometheus Alertmanager) format. The sandbox ingests with it and the console's
 * tester previews with it, so the preview is what ingestion does. Names of spec 3, 4.9; where the
 * platform's own names differ (`gitlab_environment_name`, `gitlab_incident_markdown`,
 * `gitlab_y_label`) they are read as a fallback.
 */

export type AlertPayloadFormat = 'http' | 'prometheus';

export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Fields of the HTTP format a custom mapping may point elsewhere in the payload (top tier). */
export const MAPPABLE_ALERT_FIELDS = [
  'title',
  'description',
  'start_time',
  'end_time',
  'service',
  'monitoring_tool',
  'hosts',
  'severity',
  'fingerprint',
  'service_environment_name',
] as const;
export type MappableAlertField = (typeof MAPPABLE_ALERT_FIELDS)[number];
export type AlertFieldMapping = Partial<Record<MappableAlertField, { path: readonly string[] }>>;

export interface MappedAlert {
  title: string;
  description: string | null;
  /** ISO 8601, UTC. */
  startedAt: string;
  endedAt: string | null;
  severity: AlertSeverity;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  environmentName: string | null;
  runbook: string | null;
  /** Markdown the metrics format asks to add to an incident made from the alert. */
  incidentMarkdown: string | null;
  /** SHA-1 hex; null when the payload neither gives nor yields one (no grouping then). */
  fingerprint: string | null;
  /** The payload ends the alert: `end_time` (HTTP) or `status: resolved` (metrics). */
  resolving: boolean;
  /** What the alert keeps: the whole payload (HTTP) or its item of `alerts` (metrics). */
  payload: Record<string, unknown>;
}

export interface SkippedAlert {
  /** Index in `alerts` of a metrics payload. */
  index: number;
  reason: string;
}

export type MappedPayload =
  | { ok: true; alerts: MappedAlert[]; skipped: SkippedAlert[] }
  | { ok: false; message: string };

export interface AlertMappingOptions {
  /** Milliseconds since the epoch: the start of an alert that gives none. */
  now: number;
  /** The HTTP integration's custom mapping, used when the integration is active. */
  mapping?: AlertFieldMapping | null;
  /** Top tier: a payload without a fingerprint gets one made from its content. */
  generateFingerprints?: boolean;
}

const LIMITS = { title: 200, description: 1000, service: 100, monitoringTool: 100, hosts: 255 } as const;
const DEFAULT_TITLE = 'New: Alert';
const DEFAULT_SEVERITY: AlertSeverity = 'critical';

const HTTP_SEVERITIES: Readonly<Record<string, AlertSeverity>> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  info: 'info',
  unknown: 'unknown',
};

/** The metrics format's aliases (spec 3, 4.9), besides the five names themselves. */
const METRICS_SEVERITIES: Readonly<Record<string, AlertSeverity>> = {
  critical: 'critical',
  s1: 'critical',
  p1: 'critical',
  emergency: 'critical',
  fatal: 'critical',
  high: 'high',
  s2: 'high',
  p2: 'high',
  major: 'high',
  page: 'high',
  medium: 'medium',
  s3: 'medium',
  p3: 'medium',
  error: 'medium',
  alert: 'medium',
  low: 'low',
  s4: 'low',
  p4: 'low',
  warn: 'low',
  warning: 'low',
  info: 'info',
  s5: 'info',
  p5: 'info',
  debug: 'info',
  information: 'info',
  notice: 'info',
};

/** The keys a metrics payload must have (spec 3, 4.9). */
export const METRICS_REQUIRED_KEYS = ['alerts', 'commonAnnotations', 'commonLabels', 'externalURL', 'groupKey', 'groupLabels', 'receiver', 'status', 'version'] as const;

/** An Alertmanager webhook envelope around `alerts`, for templates and tests of the metrics format. */
export const METRICS_ENVELOPE_EXAMPLE = {
  version: '4',
  groupKey: '{}:{alertname="HighLatency"}',
  status: 'firing',
  receiver: 'platform',
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
} as const;

/** The only Alertmanager webhook version the platform processes. */
export const METRICS_VERSION = '4';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Ruby's `present?`: not nil, false, blank text or an empty list or hash. */
function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

function dig(payload: unknown, path: readonly string[]): unknown {
  let value = payload;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** The first path that holds a value (nil and false do not count, as the platform's lookup). */
function firstOf(payload: unknown, paths: readonly (readonly string[])[]): unknown {
  for (const path of paths) {
    const value = dig(payload, path);
    if (value !== undefined && value !== null && value !== false) return value;
  }
  return undefined;
}

function text(value: unknown): string | null {
  if (!isPresent(value)) return null;
  return typeof value === 'string' ? value : typeof value === 'object' ? rubyInspect(value) : String(value);
}

/** Rails' `truncate`: at most `limit` characters, ending in "..." when cut. */
function truncate(value: string | null, limit: number): string | null {
  if (value === null || value.length <= limit) return value;
  return `${value.slice(0, limit - 3)}...`;
}

/** A time as the platform reads one: RFC 3339 / ISO 8601 text, or (for `end_time`) epoch milliseconds. */
function parseTime(value: unknown, epochMillis: boolean): string | null {
  if (epochMillis && typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value !== 'string' || !value.trim()) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function hostsOf(value: unknown): string[] {
  const all = (Array.isArray(value) ? value.flat(Infinity) : value === undefined || value === null ? [] : [value]).map((host) => (typeof host === 'string' ? host : rubyInspect(host)));
  const kept: string[] = [];
  let length = 0;
  for (const host of all) {
    if (length >= LIMITS.hosts) break;
    const room = LIMITS.hosts - length;
    kept.push(host.slice(0, room));
    length += Math.min(host.length, room);
  }
  return kept;
}

function severityOf(raw: unknown, table: Readonly<Record<string, AlertSeverity>>): AlertSeverity {
  if (typeof raw !== 'string') return DEFAULT_SEVERITY;
  return table[raw.toLowerCase()] ?? DEFAULT_SEVERITY;
}

// ---- fingerprints, as the platform makes them (SHA-1 of a flattened text) ----

function rubyString(value: string): string {
  let out = '"';
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    const code = char.charCodeAt(0);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '#' && (value[index + 1] === '{' || value[index + 1] === '$' || value[index + 1] === '@')) out += '\\#';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (char === '\f') out += '\\f';
    else if (char === '\v') out += '\\v';
    else if (code === 8) out += '\\b';
    else if (code === 7) out += '\\a';
    else if (code === 27) out += '\\e';
    else if (code < 0x20) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else if (code === 0x7f) out += '\\x7F';
    else out += char;
  }
  return `${out}"`;
}

function rubyNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  // Ruby writes floats in exponent form from 1e16 up and below 1e-4
  if (value !== 0 && (Math.abs(value) >= 1e16 || Math.abs(value) < 1e-4)) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  const shown = String(value);
  return shown.includes('.') ? shown : `${shown}.0`;
}

/** Ruby's `inspect` of a value parsed from JSON, the text the platform hashes. */
export function rubyInspect(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return rubyString(value);
  if (typeof value === 'number') return rubyNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(rubyInspect).join(', ')}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([key, item]) => `${rubyString(key)}=>${rubyInspect(item)}`).join(', ')}}`;
  return String(value);
}

/** Nested hashes become dotted keys ({a: {b: 1}} -> {"a.b": 1}); lists stay as they are (Gitlab::Utils::InlineHash). */
export function mergeKeys(hash: JsonObject, prefix = '', into: [string, unknown][] = []): [string, unknown][] {
  for (const [key, value] of Object.entries(hash)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isObject(value)) mergeKeys(value, name, into);
    else into.push([name, value]);
  }
  return into;
}

/** The platform's fingerprint of a given value: lists joined, hashes flattened and sorted, anything else as text. */
export function fingerprintOf(value: unknown): string | null {
  if (!isPresent(value)) return null;
  let plain: string;
  if (Array.isArray(value)) plain = value.flat(Infinity).map((item) => (typeof item === 'string' ? item : item === null ? '' : typeof item === 'object' ? rubyInspect(item) : String(item))).join('');
  else if (isObject(value)) {
    const pairs = mergeKeys(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    plain = `[${pairs.map(([key, item]) => `[${rubyString(key)}, ${rubyInspect(item)}]`).join(', ')}]`;
  } else plain = typeof value === 'string' ? value : String(value);
  return sha1Hex(plain);
}

const FINGERPRINT_EXCLUDED = new Set(['start_time', 'end_time', 'hosts']);

// ---- the two formats ----

function mapHttp(payload: JsonObject, options: AlertMappingOptions): MappedAlert {
  const mapping = options.mapping ?? {};
  // a custom path wins when it holds a value; otherwise the field's own key
  const field = (name: MappableAlertField, ...fallbacks: string[][]) => {
    const custom = mapping[name]?.path;
    return firstOf(payload, [...(custom ? [custom] : []), [name], ...fallbacks]);
  };
  const endedAt = parseTime(field('end_time'), true);
  const given = field('fingerprint');
  let fingerprint = fingerprintOf(given);
  if (fingerprint === null && options.generateFingerprints) {
    const rest = Object.fromEntries(Object.entries(payload).filter(([key]) => !FINGERPRINT_EXCLUDED.has(key)));
    if (Object.values(rest).some(isPresent)) fingerprint = fingerprintOf(rest);
  }
  return {
    title: truncate(text(field('title')), LIMITS.title) ?? DEFAULT_TITLE,
    description: truncate(text(field('description')), LIMITS.description),
    startedAt: parseTime(field('start_time'), false) ?? new Date(options.now).toISOString(),
    endedAt,
    severity: severityOf(field('severity'), HTTP_SEVERITIES),
    service: truncate(text(field('service')), LIMITS.service),
    monitoringTool: truncate(text(field('monitoring_tool')), LIMITS.monitoringTool),
    hosts: hostsOf(field('hosts')),
    environmentName: text(field('service_environment_name', ['gitlab_environment_name'])),
    runbook: text(payload.runbook),
    incidentMarkdown: null,
    fingerprint,
    resolving: endedAt !== null,
    payload,
  };
}

/** `g0.expr` of a metrics alert's generatorURL: the query that fired it. */
function fullQuery(generatorUrl: unknown): string | null {
  if (typeof generatorUrl !== 'string') return null;
  try {
    return new URL(generatorUrl).searchParams.get('g0.expr');
  } catch {
    return null;
  }
}

function mapMetricsItem(item: JsonObject, options: AlertMappingOptions): MappedAlert | string {
  const title = text(firstOf(item, [['annotations', 'title'], ['annotations', 'summary'], ['labels', 'alertname']]));
  const startsAtRaw = dig(item, ['startsAt']);
  if (title === null) return 'no title: annotations/title, annotations/summary and labels/alertname are all missing';
  if (!isPresent(startsAtRaw)) return 'no startsAt';
  const startsAtText = typeof startsAtRaw === 'string' ? startsAtRaw : rubyInspect(startsAtRaw);
  return {
    title: truncate(title, LIMITS.title) ?? DEFAULT_TITLE,
    description: truncate(text(dig(item, ['annotations', 'description'])), LIMITS.description),
    startedAt: parseTime(startsAtRaw, false) ?? new Date(options.now).toISOString(),
    endedAt: parseTime(dig(item, ['endsAt']), false),
    severity: severityOf(dig(item, ['labels', 'severity']), METRICS_SEVERITIES),
    service: null,
    monitoringTool: 'Prometheus',
    hosts: [],
    environmentName: text(firstOf(item, [['labels', 'service_environment_name'], ['labels', 'gitlab_environment_name']])),
    runbook: text(dig(item, ['annotations', 'runbook'])),
    incidentMarkdown: text(firstOf(item, [['annotations', 'service_incident_markdown'], ['annotations', 'gitlab_incident_markdown']])),
    fingerprint: sha1Hex([startsAtText, title, fullQuery(dig(item, ['generatorURL'])) ?? ''].join('/')),
    resolving: dig(item, ['status']) === 'resolved',
    payload: item,
  };
}

/** The alerts a payload becomes, or why the whole payload is refused. */
export function mapAlertPayload(format: AlertPayloadFormat, payload: unknown, options: AlertMappingOptions): MappedPayload {
  if (!isObject(payload)) return { ok: false, message: 'The payload must be a JSON object.' };
  if (format === 'http') return { ok: true, alerts: [mapHttp(payload, options)], skipped: [] };
  const missing = METRICS_REQUIRED_KEYS.filter((key) => !(key in payload));
  if (missing.length) return { ok: false, message: `The payload lacks ${missing.join(', ')}.` };
  // Projects::Prometheus::Alerts::NotifyService.processable?: the Alertmanager webhook's version 4 only
  if (payload.version !== METRICS_VERSION) return { ok: false, message: `version must be "${METRICS_VERSION}" (the Alertmanager webhook format), not ${JSON.stringify(payload.version)}.` };
  if (!Array.isArray(payload.alerts)) return { ok: false, message: 'alerts must be a list.' };
  const alerts: MappedAlert[] = [];
  const skipped: SkippedAlert[] = [];
  payload.alerts.forEach((item, index) => {
    const mapped = isObject(item) ? mapMetricsItem(item, options) : 'not an object';
    if (typeof mapped === 'string') skipped.push({ index, reason: mapped });
    else alerts.push(mapped);
  });
  return { ok: true, alerts, skipped };
}

// ---- what ingestion does with each alert ----

export interface OpenAlert {
  iid: number;
  title: string;
}

export type AlertOutcome =
  /** A new alert is opened. */
  | { kind: 'new' }
  /** An open alert with the same fingerprint counts one more event. */
  | { kind: 'event'; alert: OpenAlert }
  /** An open alert with the same fingerprint is resolved. */
  | { kind: 'resolve'; alert: OpenAlert }
  /** A resolving payload with no open alert to resolve: nothing is stored. */
  | { kind: 'nothing-to-resolve' };

/**
 * The outcome of each alert in order, as ingestion processes them: an alert opened by an earlier
 * item of the same payload is open for the later ones. `findOpen` answers from the store.
 */
export function alertOutcomes(alerts: readonly MappedAlert[], findOpen: (fingerprint: string) => OpenAlert | null): AlertOutcome[] {
  const openedHere = new Map<string, OpenAlert | null>();
  return alerts.map((alert) => {
    const fingerprint = alert.fingerprint;
    const open = fingerprint === null ? null : openedHere.has(fingerprint) ? openedHere.get(fingerprint)! : findOpen(fingerprint);
    if (open) {
      if (alert.resolving) {
        if (fingerprint !== null) openedHere.set(fingerprint, null);
        return { kind: 'resolve', alert: open };
      }
      return { kind: 'event', alert: open };
    }
    if (alert.resolving) return { kind: 'nothing-to-resolve' };
    // a later item with this fingerprint joins the alert this one opens (its iid is known only once stored)
    if (fingerprint !== null) openedHere.set(fingerprint, { iid: 0, title: alert.title });
    return { kind: 'new' };
  });
}

// ---- the fields of a sample payload, for the custom mapping editor ----

/** The platform's AlertManagementPayloadAlertFieldType: it has no number or boolean type. */
export type AlertPayloadFieldType = 'STRING' | 'DATETIME' | 'ARRAY';

export interface AlertPayloadField {
  path: string[];
  label: string;
  type: AlertPayloadFieldType;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function humanize(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/**
 * Every leaf of a sample payload with its path, a label and a type, objects walked into, lists kept whole.
 * Numbers, booleans and nulls are left out, as the platform's extractor leaves them (no enum value for them).
 */
export function payloadFields(sample: unknown, path: string[] = [], into: AlertPayloadField[] = []): AlertPayloadField[] {
  if (!isObject(sample)) return into;
  for (const [key, value] of Object.entries(sample)) {
    const here = [...path, key];
    if (isObject(value)) payloadFields(value, here, into);
    else if (Array.isArray(value)) into.push({ path: here, label: humanize(key), type: 'ARRAY' });
    else if (typeof value === 'string') into.push({ path: here, label: humanize(key), type: DATETIME.test(value) ? 'DATETIME' : 'STRING' });
  }
  return into;
}

// ---- JSON as it is typed ----

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

/** Parses JSON and says where it breaks, in lines and columns from 1, for the tester's editor. */
export function parseJsonWithPosition(source: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch {
    // the engine's message no longer says where: find the first offending character ourselves
    const { offset, message } = jsonErrorAt(source);
    const before = source.slice(0, offset);
    const line = before.split('\n').length;
    return { ok: false, message, line, column: offset - before.lastIndexOf('\n') };
  }
}

/** The offset and a description of the first error in text that JSON.parse refused. */
function jsonErrorAt(source: string): { offset: number; message: string } {
  let at = 0;
  const fail = (message: string): never => {
    throw { offset: at, message };
  };
  const space = () => {
    while (at < source.length && ' \t\n\r'.includes(source[at])) at++;
  };
  const expect = (word: string) => {
    for (const char of word) {
      if (source[at] !== char) fail(at >= source.length ? 'The text ends too early.' : `Unexpected ${JSON.stringify(source[at])}: expected ${word}.`);
      at++;
    }
  };
  const string = () => {
    at++;
    while (at < source.length && source[at] !== '"') {
      if (source[at] === '\\') {
        at++;
        if (source[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(source.slice(at + 1, at + 5))) fail('A \\u escape needs four hex digits.');
          at += 4;
        } else if (!'"\\/bfnrt'.includes(source[at] ?? '')) fail('Unknown escape in a string.');
      } else if (source.charCodeAt(at) < 0x20) fail('A line break or control character inside a string must be escaped.');
      at++;
    }
    if (at >= source.length) fail('A string is not closed.');
    at++;
  };
  const value = (): void => {
    space();
    const char = source[at];
    if (char === '{') {
      at++;
      space();
      if (source[at] === '}') return void at++;
      for (;;) {
        space();
        if (source[at] !== '"') fail(at >= source.length ? 'The text ends too early.' : 'Expected a key in double quotes.');
        string();
        space();
        expect(':');
        value();
        space();
        if (source[at] === ',') at++;
        else if (source[at] === '}') return void at++;
        else fail(at >= source.length ? 'The text ends too early.' : 'Expected , or } after a value.');
      }
    }
    if (char === '[') {
      at++;
      space();
      if (source[at] === ']') return void at++;
      for (;;) {
        value();
        space();
        if (source[at] === ',') at++;
        else if (source[at] === ']') return void at++;
        else fail(at >= source.length ? 'The text ends too early.' : 'Expected , or ] after a value.');
      }
    }
    if (char === '"') return string();
    if (char === 't') return expect('true');
    if (char === 'f') return expect('false');
    if (char === 'n') return expect('null');
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = at;
    if (char !== undefined && number.test(source)) {
      at = number.lastIndex;
      return;
    }
    fail(at >= source.length ? 'The text ends too early.' : `Unexpected ${JSON.stringify(char)}: expected a value.`);
  };
  try {
    value();
    space();
    if (at < source.length) fail('Unexpected text after the JSON value.');
    return { offset: at, message: 'Not valid JSON.' };
  } catch (error) {
    return error as { offset: number; message: string };
  }
}
