import { useEffect, useRef, useState } from 'react';
import type { DiffEntry, TreeNode } from './diff-model.ts';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';

interface DiffFileTreeProps {
  id: string;
  nodes: readonly TreeNode[];
  entries: readonly DiffEntry[];
  /** The files marked viewed: ticked in the tree. */
  viewed: ReadonlySet<number>;
  /** The file in view (the one picked, while it is): marked, and kept in the tree's view. */
  current: string;
  onPick: (file: number) => void;
}

/** The changed files by folder: folders open and close, a file's button scrolls the changes to it. */
export function DiffFileTree({ id, nodes, entries, viewed, current, onPick }: DiffFileTreeProps) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const navRef = useRef<HTMLElement>(null);
  // the marked file follows the changes' scroll: the tree scrolls its own box to keep it seen (never the page)
  useEffect(() => {
    const nav = navRef.current;
    const marked = nav?.querySelector('[aria-current="true"]');
    if (!nav || !marked) return;
    const box = nav.getBoundingClientRect();
    const at = marked.getBoundingClientRect();
    if (at.top < box.top) nav.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) nav.scrollTop += at.bottom - box.bottom;
  }, [current]);
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
            <FileButton name={node.name} path={node.path} entry={entries[node.file]} viewed={viewed.has(node.file)} current={node.path === current} onPick={() => onPick(node.file)} />
          </li>
        ),
      )}
    </ul>
  );
  return (
    <nav id={id} ref={navRef} className="diff-tree" aria-label="Changed files">
      {render(nodes)}
    </nav>
  );
}

/** A file of the tree: its name and its counts, named in words in one label (a hundred files keep few elements). */
function FileButton({ name, path, entry, viewed, current, onPick }: { name: string; path: string; entry: DiffEntry | undefined; viewed: boolean; current: boolean; onPick: () => void }) {
  const counted = entry && (entry.body === 'lines' || entry.body === 'whitespace-only');
  const added = counted ? entry.shown.additions : 0;
  const removed = counted ? entry.shown.deletions : 0;
  return (
    <button
      type="button"
      className="diff-tree__file"
      aria-current={current ? 'true' : undefined}
      aria-label={`${name}${counted ? `, ${formatCountOf(added, 'line', 'lines')} added, ${formatCount(removed)} removed` : ''}${viewed ? ', viewed' : ''}`}
      onClick={onPick}
      title={path}
    >
      <span className="diff-tree__name">
        {viewed ? <span className="diff-tree__viewed">✓ </span> : null}
        {name}
      </span>
      {counted ? (
        <>
          <span className="diff-counts diff-counts__added">+{formatCount(added)}</span>
          <span className="diff-counts diff-counts__removed">−{formatCount(removed)}</span>
        </>
      ) : null}
    </button>
  );
}
