import { useState } from 'react';
import type { DiffEntry, TreeNode } from './diff-model.ts';
import { ChangeCounts } from './diff-list.tsx';

interface DiffFileTreeProps {
  id: string;
  nodes: readonly TreeNode[];
  entries: readonly DiffEntry[];
  /** The file picked last (from the URL): marked as the current one. */
  current: string;
  onPick: (file: number) => void;
}

/** The changed files by folder: folders open and close, a file's button scrolls the changes to it. */
export function DiffFileTree({ id, nodes, entries, current, onPick }: DiffFileTreeProps) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (path: string) =>
    setClosed((previous) => {
      const next = new Set(previous);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  const render = (level: readonly TreeNode[]) => (
    <ul className="diff-tree__list">
      {level.map((node) =>
        node.type === 'folder' ? (
          <li key={`d:${node.path}`}>
            <button type="button" className="diff-tree__folder" aria-expanded={!closed.has(node.path)} onClick={() => toggle(node.path)}>
              <span aria-hidden="true">{closed.has(node.path) ? '▸' : '▾'}</span> {node.name}/
            </button>
            {closed.has(node.path) ? null : render(node.children)}
          </li>
        ) : (
          <li key={`f:${node.path}`}>
            <button type="button" className="diff-tree__file" aria-current={node.path === current ? 'true' : undefined} onClick={() => onPick(node.file)} title={node.path}>
              <span className="diff-tree__name">{node.name}</span>
              <FileCounts entry={entries[node.file]} />
            </button>
          </li>
        ),
      )}
    </ul>
  );
  return (
    <nav id={id} className="diff-tree" aria-label="Changed files">
      {render(nodes)}
    </nav>
  );
}

function FileCounts({ entry }: { entry: DiffEntry | undefined }) {
  if (!entry || (entry.body !== 'lines' && entry.body !== 'whitespace-only')) return null;
  return <ChangeCounts added={entry.shown.additions} removed={entry.shown.deletions} />;
}
