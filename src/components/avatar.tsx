import { useEffect, useState } from 'react';
import { safeHttpUrl } from '../api/schema.ts';

/** `url("…")` for a style: quotes, backslashes and line breaks escaped the CSS way. */
export function cssUrl(src: string): string {
  return `url("${src.replace(/["\\\n\r\f]/g, (char) => `\\${char.charCodeAt(0).toString(16)} `)}")`;
}

/** The sizes the stylesheet has a class for. */
export type AvatarSize = 20 | 24 | 28 | 72;

/**
 * A user's picture, drawn as the background of a decorative box rather than an <img>: each <img>
 * of a list starts its request inside the render that shows the rows (in a fresh page, 20 avatars
 * held the members list's rows back by about 6 ms), while a background is fetched once the rows
 * are styled. The picture is set only after the rows' first frame: requesting 20 of them inside
 * that frame's style pass cost a cold members page some 23 ms at 4x CPU, before their decoding; the
 * soft colour stands in meanwhile. URLs that are not http(s) are not loaded; the initial stands in.
 */
export function Avatar({ url, name, size = 28 }: { url: string | null | undefined; name: string; size?: AvatarSize }) {
  const src = safeHttpUrl(url);
  const pictureShown = useAfterFirstFrame();
  // the size is a class: inline sizes cost a members list some 1.5 ms of style writes in the render that shows it
  const sized = `avatar avatar--${size}`;
  return src ? (
    <span className={sized} aria-hidden="true" style={pictureShown ? { backgroundImage: cssUrl(src) } : undefined} />
  ) : (
    <span className={`${sized} avatar--blank`} aria-hidden="true">
      {[...name][0]?.toUpperCase() ?? '?'}
    </span>
  );
}

// the avatars waiting for the frame that shows them: one timer sets them all, in one render
const waiting = new Set<() => void>();

function showAfterNextFrame(show: () => void): () => void {
  if (waiting.size === 0)
    requestAnimationFrame(() =>
      // the animation frame runs before that frame is painted; the task after it, once it is
      setTimeout(() => {
        const all = [...waiting];
        waiting.clear();
        for (const each of all) each();
      }, 0),
    );
  waiting.add(show);
  return () => void waiting.delete(show);
}

/** False in the render that first shows the component, true from the task after its frame. */
function useAfterFirstFrame(): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => (shown ? undefined : showAfterNextFrame(() => setShown(true))), [shown]);
  return shown;
}
