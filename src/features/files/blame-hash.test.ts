import { describe, expect, it } from 'vitest';
import { describeSelection, lineHash, selectionAfterClick } from './blame-hash.ts';
import { parseLineHash } from '../../lib/line-hash.ts';

describe('line hashes', () => {
  it('reads one line or a range, in either order and either style', () => {
    expect(parseLineHash('#L40000')).toEqual({ first: 40_000, last: 40_000 });
    expect(parseLineHash('L10-20')).toEqual({ first: 10, last: 20 });
    expect(parseLineHash('L20-10')).toEqual({ first: 10, last: 20 });
    expect(parseLineHash('L10-L20')).toEqual({ first: 10, last: 20 });
  });

  it('ignores anything else', () => {
    for (const hash of ['', '#', 'L0', 'L-3', 'Lx', 'line10', 'L10-', 'L1e3']) expect(parseLineHash(hash)).toBeNull();
  });

  it('writes what it reads', () => {
    expect(lineHash({ first: 7, last: 7 })).toBe('L7');
    expect(lineHash({ first: 10, last: 20 })).toBe('L10-20');
    expect(parseLineHash(lineHash({ first: 10, last: 20 }))).toEqual({ first: 10, last: 20 });
  });

  it('picks a line on a click and extends from the first pick on a shift-click', () => {
    expect(selectionAfterClick(null, 10, true)).toEqual({ first: 10, last: 10 });
    expect(selectionAfterClick({ first: 10, last: 10 }, 20, true)).toEqual({ first: 10, last: 20 });
    expect(selectionAfterClick({ first: 10, last: 20 }, 15, true)).toEqual({ first: 10, last: 15 });
    expect(selectionAfterClick({ first: 10, last: 20 }, 5, true)).toEqual({ first: 5, last: 20 });
    expect(selectionAfterClick({ first: 10, last: 20 }, 30, false)).toEqual({ first: 30, last: 30 });
  });

  it('names the selection for buttons', () => {
    expect(describeSelection({ first: 40_000, last: 40_000 })).toBe('line 40,000');
    expect(describeSelection({ first: 10, last: 20 })).toBe('lines 10–20');
  });
});
