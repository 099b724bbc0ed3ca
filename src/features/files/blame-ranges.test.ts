import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { BlameGroup, BlameRangeAnswer } from '../../api/blame.ts';
import {
  BlameRangeLoader, MAX_IN_FLIGHT, NO_FACTS, estimateLineCount, factsWithPastEnd, factsWithFirstView, factsWithRange, lineIn, lineLimitOf, planRanges,
  startsGroup, toLoadedRange, type FetchRange,
} from './blame-ranges.ts';
import { FIRST_VIEW_LINES, RANGE_LINES, firstBlameLines, rangeIndexOf, rangeStart } from '../../api/first-requests.ts';

const commit = (id: string) => ({ id: id.padEnd(40, '0'), message: `Change ${id}\n\nBody`, authored_date: '2026-01-02T03:04:05Z', author_name: 'Ada', author_email: null, committed_date: null });
const group = (id: string, lines: string[]): BlameGroup => ({ commit: commit(id), lines });
const lines = (count: number, text = 'x') => Array.from({ length: count }, () => text);

describe('range planning', () => {
  it('numbers ranges of 2,000 lines from line 1', () => {
    expect([rangeIndexOf(1), rangeIndexOf(2000), rangeIndexOf(2001), rangeIndexOf(40_000), rangeIndexOf(40_001)]).toEqual([0, 0, 1, 19, 20]);
  });

  it('loads what is on screen first, then the range below, then the one above', () => {
    expect(planRanges({ firstLine: 1, lastLine: 40, lineLimit: Infinity })).toEqual([0, 1]);
    expect(planRanges({ firstLine: 3990, lastLine: 4030, lineLimit: Infinity })).toEqual([1, 2, 3, 0]);
  });

  it('puts the asked-for line’s range before everything else', () => {
    expect(planRanges({ firstLine: 39_980, lastLine: 40_020, focusLine: 40_000, lineLimit: Infinity })).toEqual([19, 20, 21, 18]);
    expect(planRanges({ firstLine: 1, lastLine: 40, focusLine: 40_000, lineLimit: Infinity })).toEqual([19, 0, 1]);
  });

  it('asks for nothing past the end of the file', () => {
    expect(planRanges({ firstLine: 49_980, lastLine: 50_000, lineLimit: 50_000 })).toEqual([24, 23]);
    expect(planRanges({ firstLine: 1, lastLine: 40, focusLine: 60_000, lineLimit: 50_000 })).toEqual([0, 1]);
  });
});

describe('commit groups', () => {
  it('lays the platform’s groups on line numbers from the range’s start', () => {
    const range = toLoadedRange(rangeStart(1), [group('a', ['one', 'two']), group('b', ['three'])]);
    expect(range.start).toBe(RANGE_LINES + 1);
    expect(range.groups.map((entry) => [entry.commit.id[0], entry.start, entry.length])).toEqual([['a', 2001, 2], ['b', 2003, 1]]);
    expect([...range.groupOfLine]).toEqual([0, 0, 1]);
    expect(range.bytes).toBe('one\ntwo\nthree\n'.length);
  });

  it('counts bytes in UTF-8, as the file size does', () => {
    expect(toLoadedRange(1, [group('a', ['é', '字'])]).bytes).toBe(2 + 1 + 3 + 1);
  });

  it('opens a group where the commit changes, and keeps one group across a range boundary', () => {
    const states = new Map([
      [0, { state: 'loaded' as const, range: toLoadedRange(1, [group('a', lines(1999)), group('b', ['last of range 0'])]) }],
      [1, { state: 'loaded' as const, range: toLoadedRange(rangeStart(1), [group('b', ['first of range 1']), group('c', lines(1999))]) }],
    ]);
    const lineAt = (line: number) => lineIn(states.get(rangeIndexOf(line)), line);
    expect(startsGroup(lineAt, 1)).toBe(true);
    expect(startsGroup(lineAt, 2)).toBe(false);
    expect(startsGroup(lineAt, 2000)).toBe(true);
    expect(startsGroup(lineAt, 2001)).toBe(false);
    expect(startsGroup(lineAt, 2002)).toBe(true);
    expect(lineAt(2001)).toMatchObject({ text: 'first of range 1', group: { start: 2001 } });
    expect(lineAt(4001)).toBeNull();
  });

  it('shows the commit on a range’s first line when the range above is not loaded', () => {
    const states = new Map([[1, { state: 'loaded' as const, range: toLoadedRange(rangeStart(1), [group('b', lines(RANGE_LINES))]) }]]);
    const lineAt = (line: number) => lineIn(states.get(rangeIndexOf(line)), line);
    expect(startsGroup(lineAt, 2001)).toBe(true);
    expect(startsGroup(lineAt, 2002)).toBe(false);
  });
});

describe('the line count', () => {
  const full = (index: number, text = 'x'.repeat(19)) => toLoadedRange(rangeStart(index), [group('a', lines(RANGE_LINES, text))]);

  it('is estimated from the file size and the average line of what arrived', () => {
    const facts = factsWithRange(NO_FACTS, full(19), 1_000_000);
    expect(estimateLineCount(facts)).toEqual({ count: 50_000, exact: false });
  });

  it('never falls below what arrived nor reaches a range known to be past the end', () => {
    expect(estimateLineCount(factsWithRange(NO_FACTS, full(19), 100)).count).toBe(40_000);
    const past = factsWithPastEnd(factsWithRange(NO_FACTS, full(0), 1_000_000), 30_001);
    expect(estimateLineCount(past)).toEqual({ count: 30_000, exact: false });
  });

  it('is exact from a short range, or from a full range followed by one past the end', () => {
    const short = factsWithRange(NO_FACTS, toLoadedRange(rangeStart(24), [group('a', lines(1500))]), null);
    expect(estimateLineCount(short)).toEqual({ count: 49_500, exact: true });
    const edge = factsWithPastEnd(factsWithRange(NO_FACTS, full(24), null), 50_001);
    expect(estimateLineCount(edge)).toEqual({ count: 50_000, exact: true });
    expect(estimateLineCount(factsWithRange(factsWithPastEnd(NO_FACTS, 50_001), full(24), null))).toEqual({ count: 50_000, exact: true });
    expect(estimateLineCount(factsWithPastEnd(NO_FACTS, 1))).toEqual({ count: 0, exact: true });
  });

  it('without a size, grows a range at a time', () => {
    expect(estimateLineCount(factsWithRange(NO_FACTS, full(0), null))).toEqual({ count: 4000, exact: false });
  });
});

/** A fake instance: every request waits until the test answers it. */
function fakeInstance(lineCount: number) {
  const pending: Array<{ start: number; ref: string; answer: () => void; fail: (error: unknown) => void }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchRange: FetchRange = ({ start, end, ref }) =>
    new Promise<BlameRangeAnswer>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const settle = () => inFlight--;
      pending.push({
        start,
        ref,
        answer: () => {
          settle();
          if (start > lineCount) reject(new ApiError(400, 'range is outside of the file length'));
          else resolve({ groups: [group('a', lines(Math.min(end, lineCount) - start + 1))], commitId: 'c'.repeat(40), sizeBytes: lineCount * 2 });
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      });
    });
  const take = (start: number) => {
    const index = pending.findIndex((request) => request.start === start);
    if (index < 0) throw new Error(`no request for line ${start}; pending: ${pending.map((request) => request.start).join(', ')}`);
    return pending.splice(index, 1)[0];
  };
  return { fetchRange, pending, take, maxInFlight: () => maxInFlight };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the range loader', () => {
  it('sends the first request alone, then pins the ref to its commit and keeps four in flight at most', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.want([19, 20, 21, 18, 0, 1, 2, 3]);
    expect(instance.pending.map((request) => [request.start, request.ref])).toEqual([[38_001, 'main']]);
    instance.take(38_001).answer();
    await settled();
    expect(instance.pending.map((request) => request.start)).toEqual([40_001, 42_001, 36_001, 1]);
    expect(instance.pending.every((request) => request.ref === 'c'.repeat(40))).toBe(true);
    expect(loader.requestsInFlight).toBe(MAX_IN_FLIGHT);
    instance.take(42_001).answer();
    await settled();
    expect(instance.pending.map((request) => request.start)).toEqual([40_001, 36_001, 1, 2001]);
    expect(instance.maxInFlight()).toBe(MAX_IN_FLIGHT);
  });

  it('drops ranges the screen no longer needs before they start', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.want([0]);
    instance.take(1).answer();
    await settled();
    loader.want([5, 6, 7, 8, 9, 10]);
    loader.want([20, 21]);
    expect(instance.pending.map((request) => request.start)).toEqual([10_001, 12_001, 14_001, 16_001]);
    for (const start of [10_001, 12_001, 14_001, 16_001]) instance.take(start).answer();
    await settled();
    expect(instance.pending.map((request) => request.start)).toEqual([40_001, 42_001]);
  });

  it('keeps a failed range failed until Retry, which asks again first', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.want([0, 1]);
    instance.take(1).answer();
    await settled();
    instance.take(2001).fail(new ApiError(503, 'unavailable'));
    await settled();
    expect(loader.get(1)).toMatchObject({ state: 'failed' });
    loader.want([0, 1]);
    expect(instance.pending).toEqual([]);
    loader.retry(1);
    expect(loader.get(1)).toEqual({ state: 'loading' });
    instance.take(2001).answer();
    await settled();
    expect(loader.get(1)).toMatchObject({ state: 'loaded' });
  });

  it('learns the end from a range past it, and asks nothing further', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.want([24]);
    instance.take(48_001).answer();
    await settled();
    loader.want([24, 25]);
    instance.take(50_001).answer();
    await settled();
    expect(loader.get(25)).toEqual({ state: 'past-end' });
    expect(estimateLineCount(loader.facts)).toEqual({ count: 50_000, exact: true });
    loader.want([25, 26]);
    expect(instance.pending).toEqual([]);
  });

  it('ignores answers after it is disposed, and starts over when activated again', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.want([0]);
    loader.dispose();
    instance.take(1).answer();
    await settled();
    expect(loader.get(0)).toEqual({ state: 'loading' });
    loader.activate();
    instance.take(1).answer();
    await settled();
    expect(loader.get(0)).toMatchObject({ state: 'loaded' });
  });
});

describe('the size, when the blame answers do not carry it', () => {
  it('is asked once with a HEAD, and sizes the list from then on', async () => {
    const sizes: string[] = [];
    const fetchRange: FetchRange = async () => ({ groups: [group('a', lines(RANGE_LINES, 'x'.repeat(19)))], commitId: null, sizeBytes: null });
    const loader = new BlameRangeLoader(fetchRange, 'main', MAX_IN_FLIGHT, async (ref) => {
      sizes.push(ref);
      return 1_000_000;
    });
    loader.want([0, 1]);
    await settled();
    await settled();
    expect(sizes).toEqual(['main']);
    expect(estimateLineCount(loader.facts)).toEqual({ count: 50_000, exact: false });
  });
});

describe('a file that ends exactly at a range boundary', () => {
  it('is known to end there once the loaded lines make its size, so the range after it is not asked for', () => {
    const lines = Array.from({ length: RANGE_LINES }, (_, index) => `line ${index + 1}`);
    const range = toLoadedRange(1, [{ commit: { id: 'a'.repeat(40), message: 'm', authored_date: null, author_name: null, author_email: null, committed_date: null }, lines }]);
    const facts = factsWithRange(NO_FACTS, range, range.bytes);
    expect(facts.exact).toBe(RANGE_LINES);
    expect(planRanges({ firstLine: 1, lastLine: 60, lineLimit: lineLimitOf(facts) })).toEqual([0]);
    // without the size, the next range is still worth asking for
    expect(factsWithRange(NO_FACTS, range, null).exact).toBeNull();
  });
});

describe('the first view', () => {
  it('is the platform’s first page of 200 lines, around the asked-for line or at the top', () => {
    expect(firstBlameLines(null)).toEqual({ start: 1, end: FIRST_VIEW_LINES });
    expect(firstBlameLines(50)).toEqual({ start: 1, end: 200 });
    expect(firstBlameLines(40_000)).toEqual({ start: 39_900, end: 40_099 });
  });

  it('goes alone, shows its lines, and leaves the rest to ranges at its pinned commit', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.openAt(firstBlameLines(40_000));
    loader.want([19, 20]);
    expect(instance.pending.map((request) => [request.start, request.ref])).toEqual([[39_900, 'main']]);
    expect(loader.ready).toBe(false);
    instance.take(39_900).answer();
    await settled();
    expect(loader.ready).toBe(true);
    expect(loader.lineAt(40_099)).toMatchObject({ group: { start: 39_900 } });
    expect(loader.lineAt(40_100)).toBeNull();
    // sized from its average line until a range arrives
    expect(estimateLineCount(loader.facts)).toEqual({ count: 50_000, exact: false });
    expect(instance.pending.map((request) => [request.start, request.ref])).toEqual([[38_001, 'c'.repeat(40)], [40_001, 'c'.repeat(40)]]);
    instance.take(40_001).answer();
    await settled();
    expect(loader.lineAt(40_050)).toMatchObject({ group: { start: 40_001 } });
    // asked again, it is not sent again
    loader.openAt(firstBlameLines(40_000));
    expect(instance.pending.map((request) => request.start)).toEqual([38_001]);
  });

  it('past the end of the file, gives way to the lines asked for next; short, it ends the file', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.openAt(firstBlameLines(60_000));
    instance.take(59_900).answer();
    await settled();
    expect(loader.firstView).toEqual({ state: 'past-end' });
    expect(lineLimitOf(loader.facts)).toBe(59_899);
    loader.openAt(firstBlameLines(49_950));
    instance.take(49_850).answer();
    await settled();
    expect(loader.ready).toBe(true);
    expect(estimateLineCount(loader.facts)).toEqual({ count: 50_000, exact: true });
  });

  it('stays failed until Retry', async () => {
    const instance = fakeInstance(50_000);
    const loader = new BlameRangeLoader(instance.fetchRange, 'main');
    loader.openAt(firstBlameLines(null));
    instance.take(1).fail(new ApiError(503, 'unavailable'));
    await settled();
    expect(loader.firstView).toMatchObject({ state: 'failed' });
    loader.openAt(firstBlameLines(null));
    expect(instance.pending).toEqual([]);
    loader.retryFirstView();
    instance.take(1).answer();
    await settled();
    expect(loader.ready).toBe(true);
  });

  it('counts toward the estimate only until a range arrives', () => {
    const view = toLoadedRange(39_900, [group('a', lines(FIRST_VIEW_LINES, 'x'.repeat(19)))]);
    const facts = factsWithFirstView(NO_FACTS, view, FIRST_VIEW_LINES, 1_000_000);
    expect(estimateLineCount(facts)).toEqual({ count: 50_000, exact: false });
    const withRange = factsWithRange(facts, toLoadedRange(1, [group('a', lines(RANGE_LINES, 'x'.repeat(9)))]), null);
    expect(estimateLineCount(withRange)).toEqual({ count: 100_000, exact: false });
  });
});
