import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { METRICS_ENVELOPE_EXAMPLE, alertOutcomes, fingerprintOf, mapAlertPayload, parseJsonWithPosition, payloadFields, rubyInspect, type MappedAlert } from './alert-mapping.ts';
import { sha1Hex } from './sha1.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

function httpAlert(payload: unknown, options: Partial<Parameters<typeof mapAlertPayload>[2]> = {}): MappedAlert {
  const mapped = mapAlertPayload('http', payload, { now: NOW, ...options });
  if (!mapped.ok) throw new Error(mapped.message);
  return mapped.alerts[0];
}

const METRICS_ENVELOPE = METRICS_ENVELOPE_EXAMPLE;

describe('sha1Hex', () => {
  it('equals SHA-1 of the UTF-8 bytes, across block boundaries', () => {
    for (const text of ['', 'abc', 'fingerprint', 'ü€😀', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'y'.repeat(1000)]) {
      expect(sha1Hex(text)).toBe(sha1(text));
    }
  });
});

describe('the HTTP format', () => {
  it('fills the defaults: New: Alert, now, critical, no fingerprint without fingerprinting', () => {
    expect(httpAlert({})).toMatchObject({ title: 'New: Alert', startedAt: '2026-11-26T12:00:00.000Z', severity: 'critical', fingerprint: null, resolving: false, hosts: [] });
  });

  it('reads every field and keeps extra keys in the payload', () => {
    const payload = {
      title: 'Disk full',
      description: 'at 99%',
      start_time: '2026-11-25T10:00:00+01:00',
      service: 'db',
      monitoring_tool: 'Zabbix',
      hosts: ['db-1', ['db-2']],
      severity: 'HIGH',
      service_environment_name: 'production',
      runbook: 'https://runbooks/disk',
      custom: { nested: [1, 2] },
    };
    expect(httpAlert(payload)).toMatchObject({
      title: 'Disk full',
      description: 'at 99%',
      startedAt: '2026-11-25T09:00:00.000Z',
      service: 'db',
      monitoringTool: 'Zabbix',
      hosts: ['db-1', 'db-2'],
      severity: 'high',
      environmentName: 'production',
      runbook: 'https://runbooks/disk',
      payload,
    });
  });

  it('maps only the six severity names of the format, case-insensitive; anything else is critical', () => {
    for (const [raw, severity] of [['Critical', 'critical'], ['medium', 'medium'], ['LOW', 'low'], ['info', 'info'], ['unknown', 'unknown'], ['p2', 'critical'], ['bad', 'critical'], [3, 'critical']] as const) {
      expect(httpAlert({ severity: raw }).severity).toBe(severity);
    }
  });

  it('resolves with end_time, as text or epoch milliseconds', () => {
    expect(httpAlert({ end_time: '2026-11-26T11:00:00Z' })).toMatchObject({ resolving: true, endedAt: '2026-11-26T11:00:00.000Z' });
    expect(httpAlert({ end_time: Date.parse('2026-11-26T11:00:00Z') })).toMatchObject({ resolving: true, endedAt: '2026-11-26T11:00:00.000Z' });
    expect(httpAlert({ end_time: 'not a time' })).toMatchObject({ resolving: false, endedAt: null });
  });

  it('hashes a given fingerprint: text as it is, a list joined', () => {
    expect(httpAlert({ fingerprint: 'abc' }).fingerprint).toBe(sha1('abc'));
    expect(httpAlert({ fingerprint: [1, 'fingerprint', ['given']] }).fingerprint).toBe(sha1('1fingerprintgiven'));
    expect(httpAlert({ fingerprint: 42 }).fingerprint).toBe(sha1('42'));
  });

  it('generates a fingerprint from the payload without start_time, end_time and hosts, sorted and flattened', () => {
    const one = httpAlert({ title: 'A', nested: { b: 1, a: 'x' }, start_time: '2026-11-25T10:00:00Z', hosts: ['h1'] }, { generateFingerprints: true });
    const two = httpAlert({ nested: { a: 'x', b: 1 }, title: 'A', start_time: '2026-11-26T10:00:00Z', hosts: ['h2'] }, { generateFingerprints: true });
    expect(one.fingerprint).toBe(sha1('[["nested.a", "x"], ["nested.b", 1], ["title", "A"]]'));
    expect(two.fingerprint).toBe(one.fingerprint);
    expect(httpAlert({ start_time: '2026-11-25T10:00:00Z', hosts: ['h'] }, { generateFingerprints: true }).fingerprint).toBeNull();
  });

  it('follows a custom mapping first and falls back to the field itself', () => {
    const mapping = { title: { path: ['alert', 'name'] }, severity: { path: ['alert', 'level'] } };
    expect(httpAlert({ alert: { name: 'Mapped', level: 'low' }, title: 'Own' }, { mapping })).toMatchObject({ title: 'Mapped', severity: 'low' });
    expect(httpAlert({ title: 'Own' }, { mapping })).toMatchObject({ title: 'Own', severity: 'critical' });
  });

  it('cuts long text as the platform does', () => {
    const alert = httpAlert({ title: 't'.repeat(300), hosts: ['h'.repeat(200), 'i'.repeat(200), 'j'] });
    expect(alert.title).toHaveLength(200);
    expect(alert.title.endsWith('...')).toBe(true);
    expect(alert.hosts.join('')).toHaveLength(255);
  });

  it('refuses a payload that is not an object', () => {
    expect(mapAlertPayload('http', [1], { now: NOW })).toMatchObject({ ok: false });
  });
});

describe('the metrics format', () => {
  it('makes one alert per item, titles from annotations or labels in order, with the aliases of the severity table', () => {
    const mapped = mapAlertPayload(
      'prometheus',
      {
        ...METRICS_ENVELOPE,
        alerts: [
          { status: 'firing', startsAt: '2026-11-26T10:00:00Z', annotations: { title: 'T', summary: 'S' }, labels: { alertname: 'N', severity: 'P2' }, generatorURL: 'http://prom:9090/graph?g0.expr=rate%28x%5B5m%5D%29+%3E+1&g0.tab=1' },
          { status: 'firing', startsAt: '2026-11-26T10:00:00Z', annotations: { summary: 'S' }, labels: { alertname: 'N', severity: 'warning' } },
          { status: 'resolved', startsAt: '2026-11-26T10:00:00Z', endsAt: '2026-11-26T11:00:00Z', labels: { alertname: 'N', severity: 'whatever' } },
          { status: 'firing', labels: { alertname: 'no start' } },
          { status: 'firing', startsAt: '2026-11-26T10:00:00Z', labels: {} },
        ],
      },
      { now: NOW },
    );
    if (!mapped.ok) throw new Error(mapped.message);
    expect(mapped.alerts.map((alert) => [alert.title, alert.severity, alert.resolving])).toEqual([
      ['T', 'high', false],
      ['S', 'low', false],
      ['N', 'critical', true],
    ]);
    expect(mapped.alerts[0].fingerprint).toBe(sha1('2026-11-26T10:00:00Z/T/rate(x[5m]) > 1'));
    expect(mapped.alerts[1].fingerprint).toBe(sha1('2026-11-26T10:00:00Z/S/'));
    expect(mapped.skipped.map((skip) => skip.index)).toEqual([3, 4]);
  });

  it('maps every alias of the table, case-insensitive', () => {
    const table: Record<string, string[]> = {
      critical: ['critical', 's1', 'p1', 'emergency', 'fatal'],
      high: ['high', 's2', 'p2', 'major', 'page'],
      medium: ['medium', 's3', 'p3', 'error', 'alert'],
      low: ['low', 's4', 'p4', 'warn', 'warning'],
      info: ['info', 's5', 'p5', 'debug', 'information', 'notice'],
    };
    for (const [severity, aliases] of Object.entries(table)) {
      for (const alias of aliases) {
        const mapped = mapAlertPayload('prometheus', { ...METRICS_ENVELOPE, alerts: [{ startsAt: '2026-11-26T10:00:00Z', labels: { alertname: 'A', severity: alias.toUpperCase() } }] }, { now: NOW });
        expect(mapped.ok && mapped.alerts[0].severity, alias).toBe(severity);
      }
    }
  });

  it('refuses a payload without the envelope keys', () => {
    expect(mapAlertPayload('prometheus', { alerts: [] }, { now: NOW })).toMatchObject({ ok: false, message: expect.stringContaining('commonAnnotations') });
    // the platform processes the Alertmanager webhook's version 4 only
    expect(mapAlertPayload('prometheus', { ...METRICS_ENVELOPE, version: '3', alerts: [] }, { now: NOW })).toMatchObject({ ok: false, message: expect.stringContaining('version must be "4"') });
    expect(mapAlertPayload('prometheus', { ...METRICS_ENVELOPE, version: 4, alerts: [] }, { now: NOW })).toMatchObject({ ok: false });
  });
});

describe('alertOutcomes', () => {
  const alert = (fingerprint: string | null, resolving = false) => ({ ...httpAlert({}), fingerprint, resolving });

  it('opens, adds events to open alerts, resolves them, and opens anew after resolving', () => {
    const open = new Map([['f1', { iid: 7, title: 'Open' }]]);
    const outcomes = alertOutcomes([alert('f1'), alert('f1', true), alert('f1'), alert('f2'), alert('f2'), alert(null), alert('f3', true)], (fingerprint) => open.get(fingerprint) ?? null);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['event', 'resolve', 'new', 'new', 'event', 'new', 'nothing-to-resolve']);
  });
});

describe('payloadFields', () => {
  it('lists every text and list leaf with a path, a label and a type (the platform has no number or boolean type)', () => {
    expect(payloadFields({ title: 'x', started: '2026-11-26T10:00:00Z', count: 3, up: true, gone: null, hosts: ['a'], labels: { alert_name: 'y' } })).toEqual([
      { path: ['title'], label: 'Title', type: 'STRING' },
      { path: ['started'], label: 'Started', type: 'DATETIME' },
      { path: ['hosts'], label: 'Hosts', type: 'ARRAY' },
      { path: ['labels', 'alert_name'], label: 'Alert name', type: 'STRING' },
    ]);
  });
});

describe('rubyInspect and fingerprintOf', () => {
  it('writes values as Ruby inspects them', () => {
    expect(rubyInspect(['a"b', 'c\\d', 'e\nf', '#{x}', null, true, 1.5, 1e20, 1.5e-7, { k: 1 }])).toBe('["a\\"b", "c\\\\d", "e\\nf", "\\#{x}", nil, true, 1.5, 1.0e+20, 1.5e-07, {"k"=>1}]');
    expect(fingerprintOf('')).toBeNull();
    expect(fingerprintOf([])).toBeNull();
  });
});

describe('parseJsonWithPosition', () => {
  it('says the line and column where JSON breaks', () => {
    expect(parseJsonWithPosition('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    const broken = parseJsonWithPosition('{\n  "a": 1,\n  "b": }');
    expect(broken).toMatchObject({ ok: false, line: 3, column: 8, message: 'Unexpected "}": expected a value.' });
    expect(parseJsonWithPosition('{"a": 1')).toMatchObject({ ok: false, line: 1, column: 8, message: 'The text ends too early.' });
    expect(parseJsonWithPosition('{"a": "x\ny"}')).toMatchObject({ ok: false, line: 1, column: 9 });
    expect(parseJsonWithPosition("{'a': 1}")).toMatchObject({ ok: false, line: 1, column: 2, message: 'Expected a key in double quotes.' });
    expect(parseJsonWithPosition('[1, 2] x')).toMatchObject({ ok: false, column: 8 });
  });
});
