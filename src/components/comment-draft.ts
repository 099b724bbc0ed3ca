import { useState } from 'react';
import { useActiveSession, useConnection } from '../api/react.ts';
import { usableStorage } from '../api/stored-session.ts';

/**
 * The comment being typed on one issue or merge request (or one reply), kept for this tab only (sessionStorage): it survives a
 * failed send, a reload and navigating away and back, and is cleared once the comment is posted.
 * Where the browser blocks site data, it lives in this page's memory instead.
 */
export interface DraftStore {
  read(key: string): string;
  /** An empty text removes the draft. */
  write(key: string, text: string): void;
  clear(key: string): void;
}

const PREFIX = 'console.comment-draft:';

export function createDraftStore(storage: Storage | null): DraftStore {
  const memory = new Map<string, string>();
  const read = (key: string) => memory.get(key) ?? storage?.getItem(PREFIX + key) ?? '';
  const clear = (key: string) => {
    memory.delete(key);
    storage?.removeItem(PREFIX + key);
  };
  return {
    read,
    clear,
    write: (key, text) => {
      if (!text) return clear(key);
      memory.set(key, text);
      // a full quota drops the write (usableStorage): the memory copy still serves this page
      storage?.setItem(PREFIX + key, text);
    },
  };
}

/**
 * Whose draft, on what: another account or instance in the same tab never sees it. `target` names
 * the text within the project (`issues/12`, `merge_requests/4`, `merge_requests/4/discussions/<id>`).
 */
export function draftKey(connection: { instanceUrl: string; userId?: number }, projectId: number, target: string): string {
  return `${connection.instanceUrl}#${connection.userId ?? 0}/${projectId}/${target}`;
}

let shared: DraftStore | undefined;

/** The tab's one store, made on first use (so a blocked storage is probed only when needed). */
export function draftStore(): DraftStore {
  shared ??= createDraftStore(usableStorage(() => globalThis.sessionStorage));
  return shared;
}

/**
 * The text of one comment form, kept in the tab's draft store as it is typed (`target` as in
 * `draftKey`); `clear` once it has been posted.
 */
export function useCommentDraft(projectId: number, target: string): { text: string; change: (text: string) => void; clear: () => void } {
  const connection = useConnection();
  const userId = useActiveSession()?.connection.userId;
  const key = draftKey({ instanceUrl: connection.instanceUrl, userId }, projectId, target);
  const [text, setText] = useState(() => draftStore().read(key));
  return {
    text,
    change: (next) => {
      setText(next);
      draftStore().write(key, next);
    },
    clear: () => {
      draftStore().clear(key);
      setText('');
    },
  };
}
