/** A route's part of the page: which route, and the path it was matched at (its params, not its search). */
export interface ShownMatch {
  routeId: string;
  pathname: string;
}

export interface ScreenChanges {
  /** The matches whose components make the page, outermost first. */
  currentMatches: () => ShownMatch[];
  /** Called once the next matches are in the router's state, before React renders them; returns the unsubscription. */
  beforeScreenRender: (listener: () => void) => () => void;
  /** The focusable box a route renders its child route in, for the routes that have one. */
  outletOf: (routeId: string) => HTMLElement | null;
}

/**
 * A navigation that replaces what a route shows in its outlet (another screen in the page's main
 * box, another tab of a merge request) takes the focused control (the pressed link) out of the page
 * with it: the browser then drops the focus to the page's body, and does so in the middle of React's
 * commit, where it recomputes style and layout for the half-built page (1.5 to 4 ms on a members
 * click) and sends blur events. Just before the next matches are rendered, the focus moves to that
 * outlet's box instead: a keyboard user's next Tab starts in what replaced the link, not at the top
 * of the page, and the browser has nothing to fix up. A navigation that keeps the part holding the
 * focus (another page of a list, a filter, a tab's own link) leaves the focus where it is.
 */
export function handFocusToNewScreen(router: ScreenChanges): () => void {
  let shown = router.currentMatches();
  return router.beforeScreenRender(() => {
    const next = router.currentMatches();
    const previous = shown;
    shown = next;
    const changed = firstChange(previous, next);
    if (changed === null || changed === 0) return;
    // the nearest route above the change that has a box of its own holds what is replaced
    for (let index = changed - 1; index >= 0; index--) {
      const outlet = router.outletOf(previous[index].routeId);
      if (!outlet) continue;
      const focused = outlet.ownerDocument.activeElement;
      if (focused && focused !== outlet && outlet.contains(focused)) outlet.focus({ preventScroll: true });
      return;
    }
  });
}

/** The index of the first match that is not the same route at the same path, or null when none changed. */
function firstChange(previous: ShownMatch[], next: ShownMatch[]): number | null {
  const length = Math.max(previous.length, next.length);
  for (let index = 0; index < length; index++) {
    if (previous[index]?.routeId !== next[index]?.routeId || previous[index]?.pathname !== next[index]?.pathname) return index;
  }
  return null;
}
