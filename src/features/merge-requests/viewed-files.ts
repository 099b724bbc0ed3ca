import { useCallback, useMemo, useState } from 'react';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { usableStorage } from '../../api/stored-session.ts';
import { diffDigest, viewedFiles, type DiffEntry } from './diff-model.ts';

const PREFIX = 'console.viewed-files:';

type Marks = Record<string, string>;

function readMarks(storage: Storage | null, key: string): Marks {
  try {
    const value: unknown = JSON.parse(storage?.getItem(key) ?? '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * The files of one request the reader marked viewed, kept in this browser (as the platform keeps
 * them) per account and instance; a mark holds only while the file's changes are the ones marked.
 * Where the browser blocks site data, the marks last as long as the page.
 */
export function useViewedFiles(projectId: number, iid: number, entries: readonly DiffEntry[]) {
  const connection = useConnection();
  const userId = useActiveSession()?.connection.userId;
  const key = `${PREFIX}${connection.instanceUrl}#${userId ?? 0}/${projectId}/merge_requests/${iid}`;
  const storage = useMemo(() => usableStorage(() => globalThis.localStorage), []);
  const [marks, setMarks] = useState<Marks>(() => readMarks(storage, key));
  const viewed = useMemo(() => viewedFiles(entries, marks), [entries, marks]);
  const mark = useCallback(
    (entry: DiffEntry, on: boolean) =>
      setMarks((previous) => {
        const next = { ...previous };
        if (on) next[entry.path] = diffDigest(entry.file.diff);
        else delete next[entry.path];
        // a full quota drops the write (usableStorage): the page keeps the mark
        if (Object.keys(next).length) storage?.setItem(key, JSON.stringify(next));
        else storage?.removeItem(key);
        return next;
      }),
    [storage, key],
  );
  return { viewed, mark };
}
