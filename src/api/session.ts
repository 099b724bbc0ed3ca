import { send, type Connection } from './http.ts';
import { ApiError } from './errors.ts';
import { rateLimitStore } from './rate-limit.ts';
import { CURRENT_KEY, LIST_KEY, readList, storedActiveSession, storedToken, tokenKey, usableStorage, type ActiveSession, type SavedConnection } from './stored-session.ts';

export type { ActiveSession, SavedConnection };

type Listener = () => void;

/**
 * The signed-in connection and the saved ones. Tokens live in memory and in sessionStorage, or
 * in localStorage when the user ticked "remember on this device"; never in a URL or a log.
 */
export class SessionStore {
  private listeners = new Set<Listener>();
  private active: ActiveSession | null = null;
  private saved: SavedConnection[] = [];
  /** Where the user was when a 401 sent them to connect, to come back after. */
  expiredFrom: string | null = null;

  constructor(
    private readonly local: Storage | null = usableStorage(() => globalThis.localStorage),
    private readonly session: Storage | null = usableStorage(() => globalThis.sessionStorage),
  ) {
    this.load();
  }

  /** The browser blocks site data: tokens live in this page's memory only, gone at a reload. */
  get memoryOnly(): boolean {
    return !this.local && !this.session;
  }

  private load(): void {
    const remembered = this.local ? readList(this.local) : [];
    const thisTab = this.session ? readList(this.session) : [];
    const byId = new Map<string, SavedConnection>();
    for (const connection of [...remembered, ...thisTab]) byId.set(connection.id, connection);
    this.saved = [...byId.values()];
    this.active = storedActiveSession(this.local, this.session, this.saved);
  }

  private tokenOf(connection: SavedConnection): string | null {
    return storedToken(connection, this.local, this.session);
  }

  private persist(): void {
    this.local?.setItem(LIST_KEY, JSON.stringify(this.saved.filter((connection) => connection.remember)));
    this.session?.setItem(LIST_KEY, JSON.stringify(this.saved.filter((connection) => !connection.remember)));
    if (this.active) {
      this.session?.setItem(CURRENT_KEY, this.active.connection.id);
      if (this.active.connection.remember) this.local?.setItem(CURRENT_KEY, this.active.connection.id);
    } else {
      this.session?.removeItem(CURRENT_KEY);
      this.local?.removeItem(CURRENT_KEY);
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getActive = (): ActiveSession | null => this.active;

  getSaved = (): readonly SavedConnection[] => this.saved;

  /** Whether a saved connection still has its token on this device (else it needs one again). */
  hasToken(id: string): boolean {
    const connection = this.saved.find((item) => item.id === id);
    return Boolean(connection && this.tokenOf(connection));
  }

  /** Signs in with a checked token; a connection to the same user on the same instance is replaced. */
  connect(connection: Omit<SavedConnection, 'id'>, token: string): SavedConnection {
    const id = `${connection.instanceUrl.replace(/\/+$/, '')}#${connection.userId}`;
    const saved: SavedConnection = { ...connection, id };
    const previous = this.saved.find((item) => item.id === id);
    if (previous) this.forgetToken(previous);
    this.saved = [...this.saved.filter((item) => item.id !== id), saved];
    (saved.remember ? this.local : this.session)?.setItem(tokenKey(id), token);
    this.active = { connection: saved, token };
    this.expiredFrom = null;
    this.persist();
    this.emit();
    return saved;
  }

  /** After the active token rotated itself: the new secret replaces the revoked one. */
  replaceToken(token: string): void {
    if (!this.active) return;
    const { connection } = this.active;
    (connection.remember ? this.local : this.session)?.setItem(tokenKey(connection.id), token);
    this.active = { connection, token };
    this.emit();
  }

  /** Makes another saved connection the active one; false when its token is gone. */
  switchTo(id: string): boolean {
    const connection = this.saved.find((item) => item.id === id);
    const token = connection ? this.tokenOf(connection) : null;
    if (!connection || !token) return false;
    this.active = { connection, token };
    this.persist();
    this.emit();
    return true;
  }

  private forgetToken(connection: SavedConnection): void {
    this.local?.removeItem(tokenKey(connection.id));
    this.session?.removeItem(tokenKey(connection.id));
  }

  /** Signing out forgets the token; the connection stays listed to sign in again. */
  signOut(): void {
    if (this.active) this.forgetToken(this.active.connection);
    this.active = null;
    this.persist();
    this.emit();
  }

  /** Removes a saved connection and its token from this device. */
  remove(id: string): void {
    const connection = this.saved.find((item) => item.id === id);
    if (connection) this.forgetToken(connection);
    this.saved = this.saved.filter((item) => item.id !== id);
    if (this.active?.connection.id === id) this.active = null;
    this.persist();
    this.emit();
  }

  /** A 401 means the token no longer works: drop it and remember where the user was. */
  expire(location: string): void {
    if (!this.active) return;
    this.forgetToken(this.active.connection);
    this.active = null;
    this.expiredFrom = location;
    this.persist();
    this.emit();
  }
}

/**
 * Calls `onChange` whenever the signed-in connection changes: another one, a fresh sign-in, or
 * none. A rotated token keeps its connection. Cached answers belong to the connection that
 * fetched them, so this is where a query cache is dropped.
 */
export function whenConnectionChanges(store: SessionStore, onChange: () => void): () => void {
  let current = store.getActive()?.connection;
  return store.subscribe(() => {
    const next = store.getActive()?.connection;
    if (next === current) return;
    current = next;
    // the request budget belongs to the connection too
    rateLimitStore.clear();
    onChange();
  });
}

/** The Connection the client uses for the active session (a stable object reading the store). */
export function sessionConnection(store: SessionStore, onUnauthorized: (error: ApiError) => void): Connection {
  return {
    get instanceUrl() {
      return store.getActive()?.connection.instanceUrl ?? '';
    },
    get token() {
      return store.getActive()?.token ?? null;
    },
    onUnauthorized,
  };
}

/**
 * The handler for a 401 from any request. Some endpoints answer 401 for "not allowed here"
 * (group access tokens to a non-Owner), so before ending the session it asks GET /user whether
 * the token itself still works; only a 401 there calls `onExpired`. Concurrent 401s check once.
 */
export function expiryWatcher(store: SessionStore, onExpired: () => void): (error: ApiError) => void {
  let checking: Promise<void> | null = null;
  return () => {
    const active = store.getActive();
    if (!active || checking) return;
    checking = send({ instanceUrl: active.connection.instanceUrl, token: active.token }, '/user', { timeoutMs: 15_000 })
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 401 && store.getActive()?.token === active.token) onExpired();
        },
      )
      .finally(() => {
        checking = null;
      });
  };
}
