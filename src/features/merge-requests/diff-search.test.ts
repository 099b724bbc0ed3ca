import { describe, expect, it } from 'vitest';
import { DIFF_SEARCH_DEFAULTS, diffSearchSchema } from './diff-search.ts';

describe('the Changes tab’s URL', () => {
  it('keeps the view, the whitespace choice and the file, and falls back to the defaults for a bad value', () => {
    expect(diffSearchSchema.schema().parse({ view: 'parallel', whitespace: 'hide', file: 'src/a.ts' })).toEqual({ view: 'parallel', whitespace: 'hide', file: 'src/a.ts' });
    expect(diffSearchSchema.schema().parse({ view: 'sideways', whitespace: 1, file: ['x'] })).toEqual(DIFF_SEARCH_DEFAULTS);
    expect(diffSearchSchema.schema().parse({})).toEqual(DIFF_SEARCH_DEFAULTS);
  });
});
