import { afterAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

describe('avatars', () => {
  it("answers a user's avatar_url with a PNG identicon, the same picture each time", async () => {
    const alice = h.user({ username: 'avatar-alice' });
    const user = await h.get<{ avatar_url: string }>(`/users/${alice.id}`);
    expect(user.body.avatar_url).toMatch(new RegExp(`/-/sandbox/avatars/user/${alice.id}\\.png$`));
    const path = new URL(user.body.avatar_url).pathname;
    const first = await h.app.request(`http://localhost${path}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await first.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: 80 x 80
    expect(bytes.readUInt32BE(16)).toBe(80);
    expect(bytes.readUInt32BE(20)).toBe(80);
    const again = Buffer.from(await (await h.app.request(`http://localhost${path}`)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it('answers 404 with a message for a user that does not exist', async () => {
    const answer = await h.get('http://localhost/-/sandbox/avatars/user/999999.png', { token: null });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 Not Found' });
  });
});
