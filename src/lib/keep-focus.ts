/**
 * A control disabled while it has the focus (a button while its write is sent) drops the focus to
 * the page in Chromium, and a keyboard user is left nowhere once it is enabled again. This brings
 * the focus back to it then, unless the focus went somewhere else meanwhile or the control left
 * the page (a dialog that closed returns the focus its own way). Returns the listeners' removal.
 */
export function keepFocusThroughDisable(target: Document): () => void {
  let dropped: HTMLElement | null = null;
  const forget = () => {
    dropped = null;
    watcher.disconnect();
  };
  const watcher = new MutationObserver(() => {
    if (!dropped) return;
    if (!dropped.isConnected) return forget();
    if (dropped.matches(':disabled')) return;
    const control = dropped;
    forget();
    const active = target.activeElement;
    if (active === null || active === target.body) control.focus({ preventScroll: true });
  });
  const onFocusOut = (event: FocusEvent) => {
    const control = event.target;
    if (event.relatedTarget !== null || !(control instanceof HTMLElement)) return;
    // blurred by being disabled: the focus went nowhere, and the control is disabled by the end of the task
    queueMicrotask(() => {
      const active = target.activeElement;
      if (!control.isConnected || !control.matches(':disabled') || (active !== null && active !== target.body)) return;
      dropped = control;
      // the attribute may be on the control or on a fieldset around it; a removal ends the wait
      watcher.observe(target.documentElement, { attributes: true, attributeFilter: ['disabled'], subtree: true, childList: true });
    });
  };
  const onFocusIn = () => dropped && forget();
  target.addEventListener('focusout', onFocusOut, true);
  target.addEventListener('focusin', onFocusIn, true);
  return () => {
    forget();
    target.removeEventListener('focusout', onFocusOut, true);
    target.removeEventListener('focusin', onFocusIn, true);
  };
}
