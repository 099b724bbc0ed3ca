import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { accountSortOf, accountSortParams, accountTokensSearchSchema, accountsSearchSchema } from './search.ts';

describe('service account search params', () => {
  it('fills the platform defaults for a bare URL', () => {
    expect(z.parse(accountsSearchSchema.schema(), {})).toEqual({ order_by: 'id', sort: 'desc', page: 1, per_page: 20 });
    expect(z.parse(accountTokensSearchSchema.schema(), {})).toEqual({ state: undefined, revoked: undefined, search: '', sort: 'created_desc', page: 1, per_page: 20 });
  });

  it('falls back per field when a bookmarked URL is off', () => {
    expect(z.parse(accountsSearchSchema.schema(), { order_by: 'email', sort: 'asc', page: 0, per_page: 50 })).toEqual({ order_by: 'id', sort: 'asc', page: 1, per_page: 50 });
    expect(z.parse(accountTokensSearchSchema.schema(), { state: 'gone', revoked: true, sort: 'by_colour' })).toMatchObject({ state: undefined, revoked: true, sort: 'created_desc' });
  });

  it('reads and writes the one sort choice as order_by and sort', () => {
    expect(accountSortOf({ order_by: 'username', sort: 'asc' })).toBe('username_asc');
    expect(accountSortParams('id_asc')).toEqual({ order_by: 'id', sort: 'asc' });
  });
});
