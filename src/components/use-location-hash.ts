import { useEffect, useState } from 'react';

/** `#L12` -> 12; anything else -> null. */
export function lineFromHash(hash: string): number | null {
  const match = /^#?L(\d+)$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** The location's hash, following in-page links (`#L12`) as they are clicked. */
export function useLocationHash(): string {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const update = () => setHash(window.location.hash);
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return hash;
}
