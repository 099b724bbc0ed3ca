import { safeHttpUrl } from '../api/schema.ts';

/** A user's picture; URLs that are not http(s) are not loaded. */
export function Avatar({ url, name, size = 28 }: { url: string | null | undefined; name: string; size?: number }) {
  const src = safeHttpUrl(url);
  return src ? (
    <img className="avatar" src={src} alt="" width={size} height={size} loading="lazy" referrerPolicy="no-referrer" />
  ) : (
    <span className="avatar avatar--blank" style={{ width: size, height: size }} aria-hidden="true">
      {[...name][0]?.toUpperCase() ?? '?'}
    </span>
  );
}
