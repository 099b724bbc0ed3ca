import type { Router } from '../http/route.ts';
import type { TokenRow } from '../model/users.ts';
import { personalTokenEntity } from '../model/tokens.ts';
import { notFound } from '../http/errors.ts';
import { today } from '../model/time.ts';

/** The platform release the sandbox imitates. */
export const PLATFORM_VERSION = { version: '17.8.0-ee', revision: 'sandbox' };

export function registerAuth(routes: Router): void {
  routes.get('/version', {}, (c) =>
    c.json({ ...PLATFORM_VERSION, kas: { enabled: false, externalUrl: null, version: null }, enterprise: true }),
  );
  routes.get('/metadata', {}, (c) =>
    c.json({ ...PLATFORM_VERSION, kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }, enterprise: true }),
  );

  // the authenticating token itself: how a client learns its scopes and expiry
  routes.get('/personal_access_tokens/self', { scopes: ['api', 'read_api', 'read_user', 'read_repository', 'self_rotate', 'manage_runner'] }, (c, { sandbox, actor, now }) => {
    if (actor.tokenId === null) throw notFound();
    const token = sandbox.db.prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(actor.tokenId) as TokenRow;
    return c.json(personalTokenEntity(token, today(now)));
  });
}
