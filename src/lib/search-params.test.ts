import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { filtersSet, pageParams, searchSchema, textListParam, withDefault } from './search-params.ts';

describe('filtersSet', () => {
  const schema = searchSchema(() =>
    z.object({ tab: withDefault(z.string(), 'open'), status: withDefault(z.string(), ''), labels: textListParam(), mine: withDefault(z.boolean(), false), ...pageParams() }),
  );
  const defaults = { tab: 'open', status: '', labels: [], page: 1, per_page: 20 };
  const parse = (search: Record<string, unknown>) => z.parse(schema.schema(), search) as Record<string, unknown>;

  it('counts the values set away from the defaults, not the page nor what is ignored', () => {
    expect(filtersSet(parse({}), schema, defaults, ['tab'])).toBe(0);
    expect(filtersSet(parse({ tab: 'closed', page: 3 }), schema, defaults, ['tab'])).toBe(0);
    expect(filtersSet(parse({ status: 'failed', labels: ['bug'], per_page: 50 }), schema, defaults, ['tab'])).toBe(3);
    // a value without a default counts once it is set
    expect(filtersSet(parse({ mine: true }), schema, defaults)).toBe(1);
  });

  it('leaves out the URL’s other params, which the router passes through', () => {
    const withOther: Record<string, unknown> = { ...parse({}), 'label_name[]': 'bug' };
    expect(filtersSet(withOther, schema, defaults)).toBe(0);
  });
});
