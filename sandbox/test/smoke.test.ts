import { afterAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';

const h = createHarness();
afterAll(() => h.close());

describe('harness', () => {
  it('answers GET /user for the admin token', async () => {
    const answer = await h.get('/user');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: 1, username: 'root', is_admin: true });
  });
});
