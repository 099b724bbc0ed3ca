import { firstRequests, sendFirstRequests } from './api/first-requests.ts';
import { storedActiveSession, usableStorage } from './api/stored-session.ts';

/**
 * The page's first script, a few KB: a signed-in deep link's first requests go out now, while the
 * console's code is still downloading (api/first-requests.ts); the client takes their answers when
 * its loaders ask for the same URLs (api/early.ts).
 */
const active = storedActiveSession(usableStorage(() => globalThis.localStorage), usableStorage(() => globalThis.sessionStorage));
if (active) sendFirstRequests(active.connection, active.token, firstRequests(location.pathname, location.search, location.hash, active.connection));
