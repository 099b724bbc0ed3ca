import { describe, expect, it } from 'vitest';
import { durationPoints, durationSummary, median } from './durations.ts';

const pipeline = (id: number, duration: number | null, queued: number | null) =>
  ({ id, iid: id, project_id: 1, sha: 'a', status: 'success', created_at: `2026-11-0${id}T10:00:00Z`, duration, queued_duration: queued, tag: false }) as never;

describe('durations', () => {
  it('takes the median of an odd and an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('says in words how the latest pipeline compares with the median', () => {
    const points = durationPoints([pipeline(1, 60, 2), pipeline(2, 60, 4), pipeline(3, null, null), pipeline(4, 90, 6)]);
    expect(points.map((point) => point.at)).toEqual([1, 2, 3, 4].map((day) => Date.parse(`2026-11-0${day}T10:00:00Z`) / 1000));
    expect(durationSummary(points)).toBe('Median duration 1m 00s over 3 pipelines, median queue time 4s. The latest, #4, took 1m 30s: 50% slower than the median. Longest 1m 30s, shortest 1m 00s.');
    expect(durationSummary(durationPoints([pipeline(1, null, null)]))).toBe('None of these pipelines has a recorded duration.');
  });
});
