import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore, sessionConnection, whenConnectionChanges, type SavedConnection } from './session.ts';
import { usableStorage } from './stored-session.ts';
import { ApiError } from './errors.ts';
import { retryDelay, shouldRetry } from './query-client.ts';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  values() {
    return [...this.items.values()].join('\n');
  }
}

const checked = (overrides: Partial<SavedConnection> = {}): Omit<SavedConnection, 'id'> => ({
  instanceUrl: 'https://gitlab.example.com',
  userId: 7,
  username: 'maya',
  name: 'Maya',
  avatarUrl: null,
  isAdmin: false,
  canWrite: true,
  version: '17.8.0',
  remember: false,
  ...overrides,
});

describe('SessionStore', () => {
  it('keeps the token in sessionStorage only, unless asked to remember', () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    const store = new SessionStore(local, session);
    store.connect(checked(), 'glpat-tab-only');
    expect(session.values()).toContain('glpat-tab-only');
    expect(local.values()).not.toContain('glpat-tab-only');
    store.connect(checked({ userId: 8, remember: true }), 'glpat-remembered');
    expect(local.values()).toContain('glpat-remembered');
  });

  it('comes back after a reload from the same storage', () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    new SessionStore(local, session).connect(checked({ remember: true }), 'glpat-x');
    const reloaded = new SessionStore(local, session);
    expect(reloaded.getActive()).toMatchObject({ token: 'glpat-x', connection: { username: 'maya' } });
    // a new tab has an empty sessionStorage: a remembered connection still signs in
    expect(new SessionStore(local, new MemoryStorage()).getActive()?.token).toBe('glpat-x');
  });

  it('switches between saved connections and signs out without forgetting the list', () => {
    const store = new SessionStore(new MemoryStorage(), new MemoryStorage());
    const first = store.connect(checked(), 'glpat-one');
    const second = store.connect(checked({ instanceUrl: 'https://other.example', userId: 1, username: 'root' }), 'glpat-two');
    expect(store.getActive()?.connection.id).toBe(second.id);
    expect(store.switchTo(first.id)).toBe(true);
    expect(store.getActive()?.token).toBe('glpat-one');
    store.signOut();
    expect(store.getActive()).toBeNull();
    expect(store.hasToken(first.id)).toBe(false);
    expect(store.getSaved().map((item) => item.username)).toEqual(['maya', 'root']);
    expect(store.switchTo(first.id)).toBe(false);
  });

  it('forgets the token of an expired session and remembers where the user was', () => {
    const session = new MemoryStorage();
    const store = new SessionStore(new MemoryStorage(), session);
    store.connect(checked(), 'glpat-expired');
    let told = 0;
    store.subscribe(() => told++);
    store.expire('/groups/4/members?page=2');
    expect(store.getActive()).toBeNull();
    expect(store.expiredFrom).toBe('/groups/4/members?page=2');
    expect(session.values()).not.toContain('glpat-expired');
    expect(told).toBe(1);
  });

  it('gives the client a connection that follows the active session', () => {
    const store = new SessionStore(new MemoryStorage(), new MemoryStorage());
    const connection = sessionConnection(store, () => {});
    expect(connection.token).toBeNull();
    store.connect(checked(), 'glpat-live');
    expect(connection).toMatchObject({ instanceUrl: 'https://gitlab.example.com', token: 'glpat-live' });
  });
});

describe('query retry policy', () => {
  it('retries network errors, 5xx and 429, never other 4xx, at most three times', () => {
    expect(shouldRetry(0, new ApiError(0, 'down', 'network'))).toBe(true);
    expect(shouldRetry(0, new ApiError(503, 'busy'))).toBe(true);
    expect(shouldRetry(0, new ApiError(429, 'slow down'))).toBe(true);
    expect(shouldRetry(0, new ApiError(404, 'missing'))).toBe(false);
    expect(shouldRetry(0, new ApiError(401, 'who'))).toBe(false);
    expect(shouldRetry(0, new ApiError(200, 'odd', 'parse'))).toBe(false);
    expect(shouldRetry(3, new ApiError(503, 'busy'))).toBe(false);
    expect(shouldRetry(0, new Error('bug'))).toBe(false);
  });

  it('backs off exponentially, or waits what Retry-After asks', () => {
    expect(retryDelay(0, new ApiError(503, 'x'))).toBe(500);
    expect(retryDelay(2, new ApiError(503, 'x'))).toBe(2000);
    expect(retryDelay(10, new ApiError(503, 'x'))).toBe(8000);
    expect(retryDelay(0, new ApiError(429, 'x', 'http', undefined, 7))).toBe(7000);
  });
});

describe('a token that rotated itself', () => {
  it('replaces the stored secret of the active connection', () => {
    const session = new MemoryStorage();
    const store = new SessionStore(new MemoryStorage(), session);
    store.connect(checked({ isBot: true }), 'glpat-before');
    store.replaceToken('glpat-after');
    expect(store.getActive()?.token).toBe('glpat-after');
    expect(session.values()).toContain('glpat-after');
    expect(session.values()).not.toContain('glpat-before');
    expect(new SessionStore(new MemoryStorage(), session).getActive()?.token).toBe('glpat-after');
  });
});

describe('whenConnectionChanges', () => {
  it('tells of each sign-in, switch, sign-out, removal and expiry, not of a rotated token or another connection forgotten', () => {
    const store = new SessionStore(new MemoryStorage(), new MemoryStorage());
    let changes = 0;
    whenConnectionChanges(store, () => changes++);
    const first = store.connect(checked(), 'glpat-one');
    expect(changes).toBe(1);
    const second = store.connect(checked({ userId: 1, username: 'root' }), 'glpat-two');
    expect(changes).toBe(2);
    store.replaceToken('glpat-two-rotated');
    expect(changes).toBe(2);
    store.switchTo(first.id);
    expect(changes).toBe(3);
    store.remove(second.id);
    expect(changes).toBe(3);
    store.connect(checked(), 'glpat-one-again');
    expect(changes).toBe(4);
    store.expire('/');
    expect(changes).toBe(5);
    store.connect(checked(), 'glpat-three');
    store.remove(first.id);
    expect(changes).toBe(7);
    store.signOut();
    expect(changes).toBe(7);
  });
});

describe('a browser that blocks site data', () => {
  const blocked = () => {
    throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
  };
  afterEach(() => {
    delete (globalThis as { localStorage?: Storage }).localStorage;
    delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
  });

  it('still gets a session store, which keeps the token in memory and says so', () => {
    // the browser throws at the mere access of window.localStorage and window.sessionStorage
    Object.defineProperty(globalThis, 'localStorage', { get: blocked, configurable: true });
    Object.defineProperty(globalThis, 'sessionStorage', { get: blocked, configurable: true });
    const store = new SessionStore();
    expect(store.memoryOnly).toBe(true);
    store.connect(checked({ remember: true }), 'glpat-memory-only');
    expect(store.getActive()?.token).toBe('glpat-memory-only');
    expect(store.getSaved()).toHaveLength(1);
    store.signOut();
    expect(store.getActive()).toBeNull();
  });

  it('keeps working when a write is refused (a full quota)', () => {
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const store = new SessionStore(usableStorage(() => full), usableStorage(() => new MemoryStorage()));
    expect(store.memoryOnly).toBe(false);
    expect(() => store.connect(checked({ remember: true }), 'glpat-full-quota')).not.toThrow();
    expect(store.getActive()?.token).toBe('glpat-full-quota');
  });

  it('finds no storage where the getter throws, and uses the one that answers', () => {
    expect(usableStorage(blocked)).toBeNull();
    expect(usableStorage(() => undefined)).toBeNull();
    const storage = new MemoryStorage();
    usableStorage(() => storage)?.setItem('key', 'value');
    expect(storage.getItem('key')).toBe('value');
  });
});
