import type { HighlightNode } from '../lib/highlight.ts';

/** Highlighted text as React elements: spans with highlight.js's classes, the file's text as text (never HTML). */
export function Highlighted({ nodes }: { nodes: readonly HighlightNode[] }) {
  return nodes.map((node, index) =>
    typeof node === 'string' ? (
      node
    ) : (
      <span key={index} className={node.className}>
        <Highlighted nodes={node.children} />
      </span>
    ),
  );
}
