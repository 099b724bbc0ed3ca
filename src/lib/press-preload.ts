interface PressPreload {
  /** The path shown now: a press on a link to it (a tab, a page of the same list) starts nothing. */
  currentPath: () => string;
  /** Starts the route's code and loaders for an in-app href (path, search and hash). */
  preload: (href: string) => void;
}

/**
 * A press on a link of the console starts its route's code and data at once: the click comes when
 * the button is released (about 100 ms later for a person), and its navigation finds them in flight.
 * Only a plain primary press on a same-origin link that opens here; returns the listener's removal.
 */
export function startRoutesOnPress(target: Document, { currentPath, preload }: PressPreload): () => void {
  const onPress = (event: PointerEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
    const url = new URL(link.href);
    if (url.origin !== target.location.origin || url.pathname === currentPath()) return;
    preload(url.pathname + url.search + url.hash);
  };
  target.addEventListener('pointerdown', onPress, { capture: true, passive: true });
  return () => target.removeEventListener('pointerdown', onPress, { capture: true });
}
