/**
 * The signed-in session as the browser stores it, read without the rest of the client: the boot
 * script (src/boot.ts) reads it to send a deep link's first requests before the console's code is in.
 */

/** A connection the user made on this device; the token is kept apart from it. */
export interface SavedConnection {
  id: string;
  instanceUrl: string;
  userId: number;
  username: string;
  name: string;
  avatarUrl: string | null;
  isAdmin: boolean;
  /** A bot: the console is connected with a group or project access token. */
  isBot?: boolean;
  /** The token's scopes, when the instance told them. */
  scopes?: string[] | null;
  /** false when the token lacks `api`: the console is read-only. */
  canWrite: boolean;
  version: string | null;
  /** The instance serves only the API (the sandbox, whose /version says revision "sandbox"): its web pages do not exist. */
  apiOnly?: boolean;
  /** The token sits in localStorage only when the user asked to be remembered. */
  remember: boolean;
}

export interface ActiveSession {
  connection: SavedConnection;
  token: string;
}

export const LIST_KEY = 'platform-console.connections';
export const CURRENT_KEY = 'platform-console.current';
export const tokenKey = (id: string) => `platform-console.token.${id}`;

/**
 * The browser's storage, or null where it is missing or blocked: a browser that blocks site
 * data throws at the mere access. Writes that fail (a full quota) are dropped, not thrown.
 */
export function usableStorage(get: () => Storage | undefined): Storage | null {
  let storage: Storage | undefined;
  try {
    storage = get();
    storage?.getItem(LIST_KEY);
  } catch {
    return null;
  }
  if (!storage) return null;
  const found = storage;
  const safely = (write: () => void) => {
    try {
      write();
    } catch {
      // the value stays in memory for this tab
    }
  };
  return {
    get length() {
      return found.length;
    },
    key: (index) => found.key(index),
    getItem: (key) => found.getItem(key),
    setItem: (key, value) => safely(() => found.setItem(key, value)),
    removeItem: (key) => safely(() => found.removeItem(key)),
    clear: () => safely(() => found.clear()),
  };
}

export function readList(storage: Storage): SavedConnection[] {
  try {
    const parsed = JSON.parse(storage.getItem(LIST_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as SavedConnection[]) : [];
  } catch {
    return [];
  }
}

/** A connection's token: in localStorage when it is remembered, else in this tab's sessionStorage. */
export function storedToken(connection: SavedConnection, local: Storage | null, session: Storage | null): string | null {
  return (connection.remember ? local : session)?.getItem(tokenKey(connection.id)) ?? null;
}

/** The session this tab is signed in with: its own first, else the one remembered on this device. */
export function storedActiveSession(local: Storage | null, session: Storage | null, saved = [...(local ? readList(local) : []), ...(session ? readList(session) : [])]): ActiveSession | null {
  const currentId = session?.getItem(CURRENT_KEY) ?? local?.getItem(CURRENT_KEY) ?? null;
  const current = saved.findLast((connection) => connection.id === currentId);
  const token = current ? storedToken(current, local, session) : null;
  return current && token ? { connection: current, token } : null;
}
