/** Lines picked in the URL hash: `#L40` or `#L10-20` (GitHub's `#L10-L20` too). */
export interface LineSelection {
  first: number;
  last: number;
}

export function parseLineHash(hash: string): LineSelection | null {
  const match = /^#?L(\d{1,9})(?:-L?(\d{1,9}))?$/.exec(hash.trim());
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if (from < 1 || to < 1) return null;
  return { first: Math.min(from, to), last: Math.max(from, to) };
}
