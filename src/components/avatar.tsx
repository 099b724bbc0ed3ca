import { safeHttpUrl } from '../api/schema.ts';

/** A user's picture; URLs that are not http(s) are not loaded. */
export function Avatar({ url, name, size = 28 }: { url: string | null | undefined; name: string; size?: number }) {
  const src = safeHttpUrl(url);
  return src ? (
    // loading and referrerPolicy come before src: the request starts as soon as src is set
    <img className="avatar" loading="lazy" decoding="async" referrerPolicy="no-referrer" alt="" width={size} height={size} src={src} />
  ) : (
    <span className="avatar avatar--blank" style={{ width: size, height: size }} aria-hidden="true">
      {[...name][0]?.toUpperCase() ?? '?'}
    </span>
  );
}
