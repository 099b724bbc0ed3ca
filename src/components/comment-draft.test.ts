import { describe, expect, it } from 'vitest';
import { createDraftStore, draftKey } from './comment-draft.ts';

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  key = (index: number) => [...this.#items.keys()][index] ?? null;
  getItem = (key: string) => this.#items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.#items.set(key, value);
  removeItem = (key: string) => void this.#items.delete(key);
  clear = () => this.#items.clear();
}

describe('draft storage', () => {
  const key = draftKey({ instanceUrl: 'https://example.test', userId: 7 }, 3, 'issues/12');

  it('keeps a draft per issue in the tab’s storage, read back by a new page (a reload)', () => {
    const storage = new MemoryStorage();
    createDraftStore(storage).write(key, 'half a comment');
    const other = draftKey({ instanceUrl: 'https://example.test', userId: 7 }, 3, 'issues/13');
    const reloaded = createDraftStore(storage);
    expect(reloaded.read(key)).toBe('half a comment');
    expect(reloaded.read(other)).toBe('');
  });

  it('is cleared after a send, and an empty text removes it', () => {
    const storage = new MemoryStorage();
    const store = createDraftStore(storage);
    store.write(key, 'text');
    store.clear(key);
    expect(createDraftStore(storage).read(key)).toBe('');
    store.write(key, 'again');
    store.write(key, '');
    expect(storage.length).toBe(0);
  });

  it('another account on the same issue has its own draft', () => {
    const storage = new MemoryStorage();
    const store = createDraftStore(storage);
    store.write(key, 'mine');
    expect(store.read(draftKey({ instanceUrl: 'https://example.test', userId: 8 }, 3, 'issues/12'))).toBe('');
  });

  it('a merge request with the same number as an issue has its own draft', () => {
    const store = createDraftStore(new MemoryStorage());
    store.write(key, 'on the issue');
    expect(store.read(draftKey({ instanceUrl: 'https://example.test', userId: 7 }, 3, 'merge_requests/12'))).toBe('');
  });

  it('falls back to memory where storage is blocked or full', () => {
    const blocked = createDraftStore(null);
    blocked.write(key, 'kept in memory');
    expect(blocked.read(key)).toBe('kept in memory');
    // a full quota: usableStorage drops the write instead of throwing
    const full = new MemoryStorage();
    full.setItem = () => undefined;
    const store = createDraftStore(full);
    store.write(key, 'still here');
    expect(store.read(key)).toBe('still here');
  });
});
