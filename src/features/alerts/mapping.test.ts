import { describe, expect, it } from 'vitest';
import { fieldMappingOf, mappableField, mappingInput, openAlertsByFingerprint, pathKey, previewPayload, unflattenKeys, HTTP_TEMPLATE, METRICS_TEMPLATE } from './mapping.ts';

const now = Date.parse('2026-11-26T12:00:00Z');
const none = new Map();

describe('the mapping editor', () => {
  it('names fields as the mapping module does', () => {
    expect(mappableField('TITLE')).toBe('title');
    expect(mappableField('GITLAB_ENVIRONMENT_NAME')).toBe('service_environment_name');
    expect(mappableField('NOPE')).toBeNull();
  });

  it('turns saved mappings and picks into each other', () => {
    expect(fieldMappingOf([{ fieldName: 'TITLE', path: ['labels', 'name'] }, { fieldName: 'HOSTS', path: ['targets', 0] }])).toEqual({ title: { path: ['labels', 'name'] }, hosts: { path: ['targets', '0'] } });
    const fields = [{ path: ['labels', 'name'], label: 'Name', type: 'STRING' }, { path: ['sev'], label: 'Sev', type: 'STRING' }];
    expect(mappingInput({ TITLE: pathKey(['labels', 'name']), SEVERITY: '', FINGERPRINT: pathKey(['gone']) }, fields)).toEqual([{ fieldName: 'TITLE', path: ['labels', 'name'], type: 'STRING', label: 'Name' }]);
  });
});

describe('the preview', () => {
  it('says where the JSON breaks', () => {
    const preview = previewPayload('{\n  "title": "x",\n  oops\n}', 'http', { now, mapping: null, open: none });
    expect(preview).toMatchObject({ kind: 'invalid-json', error: { line: 3, column: 3 } });
    expect(previewPayload('  ', 'http', { now, mapping: null, open: none })).toEqual({ kind: 'empty' });
    expect(previewPayload('[1]', 'http', { now, mapping: null, open: none })).toMatchObject({ kind: 'refused' });
  });

  it('maps with the custom mapping and tells new from an event on an open alert', () => {
    const payload = JSON.stringify({ labels: { name: 'Custom title' }, fingerprint: 'fp-1' });
    const fresh = previewPayload(payload, 'http', { now, mapping: { title: { path: ['labels', 'name'] } }, open: none });
    expect(fresh).toMatchObject({ kind: 'ok', items: [{ alert: { title: 'Custom title', severity: 'critical' }, outcome: { kind: 'new' } }] });
    const fingerprint = fresh.kind === 'ok' ? fresh.fingerprints[0] : '';
    const again = previewPayload(payload, 'http', { now, mapping: null, open: new Map([[fingerprint, { iid: 4, title: 'Custom title' }]]) });
    expect(again).toMatchObject({ kind: 'ok', items: [{ alert: { title: 'New: Alert' }, outcome: { kind: 'event', alert: { iid: 4 } } }] });
  });

  it('previews both templates as valid alerts', () => {
    expect(previewPayload(HTTP_TEMPLATE, 'http', { now, mapping: null, open: none })).toMatchObject({ kind: 'ok', items: [{ alert: { title: 'High CPU usage on web-1', severity: 'high' } }] });
    expect(previewPayload(METRICS_TEMPLATE, 'prometheus', { now, mapping: null, open: none })).toMatchObject({ kind: 'ok', items: [{ alert: { title: 'API latency above 500 ms' } }] });
  });
});

describe('open alerts for the preview', () => {
  it('unflattens the dotted keys of details', () => {
    expect(unflattenKeys({ 'labels.host': 'a', 'labels.env': 'b', title: 't', hosts: ['x'] })).toEqual({ labels: { host: 'a', env: 'b' }, title: 't', hosts: ['x'] });
  });

  it('finds the open alert a payload joins, by the fingerprint recomputed from its stored payload', () => {
    const payload = { title: 'Disk full', service: 'db', labels: { host: 'db-1' } };
    const preview = previewPayload(JSON.stringify(payload), 'http', { now, mapping: null, open: none });
    const details = { title: 'Disk full', service: 'db', 'labels.host': 'db-1' };
    const open = openAlertsByFingerprint('http', [{ iid: '9', title: 'Disk full', details }, { iid: '10', title: 'Disk full', details: { title: 'Disk full', service: 'other' } }], null);
    const joined = previewPayload(JSON.stringify(payload), 'http', { now, mapping: null, open });
    expect(preview).toMatchObject({ items: [{ outcome: { kind: 'new' } }] });
    expect(joined).toMatchObject({ items: [{ outcome: { kind: 'event', alert: { iid: 9 } } }] });
    const resolving = previewPayload(JSON.stringify({ ...payload, end_time: '2026-11-26T12:00:00Z' }), 'http', { now, mapping: null, open });
    expect(resolving).toMatchObject({ items: [{ outcome: { kind: 'resolve', alert: { iid: 9 } } }] });
  });

  it('recomputes a metrics item fingerprint from its stored item', () => {
    const template = JSON.parse(METRICS_TEMPLATE) as { alerts: Array<Record<string, unknown>> };
    const item = template.alerts[0];
    const details = { ...item, labels: undefined, annotations: undefined, ...Object.fromEntries(Object.entries(item.labels as object).map(([k, v]) => [`labels.${k}`, v])), ...Object.fromEntries(Object.entries(item.annotations as object).map(([k, v]) => [`annotations.${k}`, v])) };
    delete details.labels;
    delete details.annotations;
    const open = openAlertsByFingerprint('prometheus', [{ iid: '5', title: 'API latency above 500 ms', details }], null);
    expect(previewPayload(METRICS_TEMPLATE, 'prometheus', { now, mapping: null, open })).toMatchObject({ items: [{ outcome: { kind: 'event', alert: { iid: 5 } } }] });
  });
});

describe('the format a payload is read in', () => {
  it('reads an Alertmanager webhook sent to an HTTP endpoint as the metrics format, without the custom mapping', () => {
    const preview = previewPayload(METRICS_TEMPLATE, 'http', { now, mapping: { title: { path: ['receiver'] } }, open: none });
    expect(preview).toMatchObject({ kind: 'ok', format: 'prometheus', items: [{ alert: { title: 'API latency above 500 ms' } }] });
    const old = previewPayload(METRICS_TEMPLATE.replace('"version": "4"', '"version": "3"'), 'http', { now, mapping: null, open: none });
    expect(old).toMatchObject({ kind: 'ok', format: 'http', items: [{ alert: { title: 'New: Alert' } }] });
  });
});
