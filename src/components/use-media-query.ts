import { useCallback, useSyncExternalStore } from 'react';

/** Below this width the sidebar is a drawer and a list's filters fold away: a phone, or a narrow window. */
export const NARROW_SCREEN = '(max-width: 768px)';

// one list per query, and a subscription kept across renders: the shell renders at each navigation
const mediaLists = new Map<string, MediaQueryList>();
function mediaList(query: string): MediaQueryList {
  let list = mediaLists.get(query);
  if (!list) mediaLists.set(query, (list = matchMedia(query)));
  return list;
}

/** Whether the media query matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = mediaList(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => mediaList(query).matches);
}
