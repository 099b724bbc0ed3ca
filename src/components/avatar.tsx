import { safeHttpUrl } from '../api/schema.ts';

/** `url("…")` for a style: quotes, backslashes and line breaks escaped the CSS way. */
export function cssUrl(src: string): string {
  return `url("${src.replace(/["\\\n\r\f]/g, (char) => `\\${char.charCodeAt(0).toString(16)} `)}")`;
}

/**
 * A user's picture, drawn as the background of a decorative box rather than an <img>: each <img>
 * of a list starts its request inside the render that shows the rows (in a fresh page, 20 avatars
 * held the members list's rows back by about 6 ms), while a background is fetched once the rows
 * are styled. URLs that are not http(s) are not loaded; the initial stands in for them.
 */
export function Avatar({ url, name, size = 28 }: { url: string | null | undefined; name: string; size?: number }) {
  const src = safeHttpUrl(url);
  return src ? (
    <span className="avatar" aria-hidden="true" style={{ width: size, height: size, backgroundImage: cssUrl(src) }} />
  ) : (
    <span className="avatar avatar--blank" style={{ width: size, height: size }} aria-hidden="true">
      {[...name][0]?.toUpperCase() ?? '?'}
    </span>
  );
}
