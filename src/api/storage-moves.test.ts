import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { bulkMoveSchema, canReschedule, isMoveInProgress, movesRefetchInterval, scheduleMoveSchema, storageMoveSchema } from './storage-moves.ts';

describe('storage move states', () => {
  it('counts a move as in progress until it has finished or failed', () => {
    for (const state of ['initial', 'scheduled', 'started', 'replicated']) expect(isMoveInProgress(state)).toBe(true);
    for (const state of ['finished', 'failed', 'cleanup failed']) expect(isMoveInProgress(state)).toBe(false);
  });

  it('polls every second while any move on the page is under way, not otherwise', () => {
    expect(movesRefetchInterval([{ state: 'finished' }, { state: 'started' }])).toBe(1000);
    expect(movesRefetchInterval([{ state: 'finished' }, { state: 'failed' }])).toBe(false);
    expect(movesRefetchInterval([])).toBe(false);
    expect(movesRefetchInterval(undefined)).toBe(false);
  });

  it('reschedules failed project moves only', () => {
    const project = { id: 1, name: 'p', name_with_namespace: 'g / p', path_with_namespace: 'g/p' };
    expect(canReschedule({ state: 'failed', project })).toBe(true);
    expect(canReschedule({ state: 'cleanup failed', project })).toBe(false);
    expect(canReschedule({ state: 'finished', project })).toBe(false);
    expect(canReschedule({ state: 'failed', project: undefined })).toBe(false);
  });
});

describe('storage move schemas', () => {
  it('parses the platform entity of a project move and of a group move', () => {
    const base = { id: 3, created_at: '2024-01-01T00:00:00Z', state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage-2' };
    const projectMove = z.parse(storageMoveSchema, { ...base, project: { id: 7, description: null, name: 'p', name_with_namespace: 'G / p', path: 'p', path_with_namespace: 'g/p', created_at: 'x' } });
    expect(projectMove.project?.path_with_namespace).toBe('g/p');
    expect(z.parse(storageMoveSchema, { ...base, group: { id: 2, web_url: 'u', name: 'G' } }).group?.name).toBe('G');
  });

  it('asks for a picked container and a known destination', () => {
    expect(z.safeParse(scheduleMoveSchema, { kind: 'project', containerId: '', destination: 'storage-2' }).success).toBe(false);
    expect(z.safeParse(scheduleMoveSchema, { kind: 'project', containerId: '12', destination: 'storage-9' }).success).toBe(false);
    expect(z.parse(scheduleMoveSchema, { kind: 'group', containerId: '12', destination: 'storage-3' })).toEqual({ kind: 'group', containerId: '12', destination: 'storage-3' });
  });

  it('refuses a bulk move onto its own source, on the destination field', () => {
    const same = z.safeParse(bulkMoveSchema, { source: 'default', destination: 'default' });
    expect(same.success).toBe(false);
    expect(same.error?.issues[0].path).toEqual(['destination']);
    expect(z.safeParse(bulkMoveSchema, { source: 'default', destination: 'storage-3' }).success).toBe(true);
  });
});
