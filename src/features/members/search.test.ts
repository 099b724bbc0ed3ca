import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { billableSearchSchema, membersSearchSchema } from './search.ts';
import { addMemberFormSchema, memberFormSchema } from '../../api/members.ts';

describe('members search params', () => {
  it('fills every default for a bare URL', () => {
    expect(z.parse(membersSearchSchema.schema(), {})).toEqual({ tab: 'direct', query: '', user_ids: [], skip_users: [], show_seat_info: false, page: 1, per_page: 20 });
  });

  it('falls back per field when a bookmarked URL is off, keeping the good fields', () => {
    const parsed = z.parse(membersSearchSchema.schema(), { tab: 'everyone', query: 'maya', user_ids: ['x'], page: -2, per_page: 37, state: 'gone', show_seat_info: true });
    expect(parsed).toEqual({ tab: 'direct', query: 'maya', user_ids: [], skip_users: [], show_seat_info: true, page: 1, per_page: 20, state: undefined });
  });

  it('keeps a valid billable view, and drops a bad sort', () => {
    expect(z.parse(billableSearchSchema.schema(), { sort: 'recent_sign_in', member: 12 })).toMatchObject({ sort: 'recent_sign_in', member: 12 });
    expect(z.parse(billableSearchSchema.schema(), { sort: 'by_shoe_size' }).sort).toBe('name_asc');
  });
});

describe('member forms use the API rules', () => {
  it('accepts a role of spec 1 2.7 and an empty or future expiry', () => {
    expect(z.safeParse(memberFormSchema, { access_level: '30', expires_at: '' }).success).toBe(true);
    expect(z.safeParse(memberFormSchema, { access_level: 40, expires_at: '2999-12-31' }).success).toBe(true);
  });

  it('refuses other roles, past dates and malformed dates with readable messages', () => {
    const messages = (input: unknown) => z.safeParse(memberFormSchema, input).error?.issues.map((issue) => issue.message) ?? [];
    expect(messages({ access_level: 35, expires_at: '' })).toEqual(['Choose a role']);
    expect(messages({ access_level: 30, expires_at: '2001-01-01' })).toEqual(['The expiry date must be after today']);
    expect(messages({ access_level: 30, expires_at: '31/12/2030' })).toContain('Use the form YYYY-MM-DD');
  });

  it('needs a user to add', () => {
    expect(z.safeParse(addMemberFormSchema, { access_level: 30, expires_at: '' }).success).toBe(false);
    expect(z.safeParse(addMemberFormSchema, { user_id: 4, access_level: 30, expires_at: '' }).success).toBe(true);
  });
});
