import { REPEAT_AFTER_MS } from './press-window.ts';

/**
 * A control disabled while it has the focus (a button while its write is sent) drops the focus to
 * the page in Chromium, and a keyboard user is left nowhere once it is enabled again. This brings
 * the focus back to it then, unless the focus went somewhere else meanwhile or the control left
 * the page (a dialog that closed returns the focus its own way). Not before the press's repeat
 * window has passed: a repeated Enter still lands on the page, not on a toggle that now means its
 * opposite (Follow become Unfollow). Returns the listeners' removal.
 */
export function keepFocusThroughDisable(target: Document, repeatWindowMs = REPEAT_AFTER_MS): () => void {
  let dropped: { control: HTMLElement; at: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const forget = () => {
    dropped = null;
    clearTimeout(timer);
    timer = undefined;
    watcher.disconnect();
  };
  const giveBack = (control: HTMLElement) => {
    const active = target.activeElement;
    if (control.isConnected && !control.matches(':disabled') && (active === null || active === target.body)) control.focus({ preventScroll: true });
  };
  const watcher = new MutationObserver(() => {
    if (!dropped) return;
    const { control, at } = dropped;
    if (!control.isConnected) return forget();
    if (control.matches(':disabled')) return;
    forget();
    timer = setTimeout(() => giveBack(control), Math.max(0, at + repeatWindowMs - performance.now()));
  });
  const onFocusOut = (event: FocusEvent) => {
    const control = event.target;
    if (event.relatedTarget !== null || !(control instanceof HTMLElement)) return;
    const at = performance.now();
    // blurred by being disabled: the focus went nowhere, and the control is disabled by the end of the task
    queueMicrotask(() => {
      const active = target.activeElement;
      if (!control.isConnected || !control.matches(':disabled') || (active !== null && active !== target.body)) return;
      forget();
      dropped = { control, at };
      // the attribute may be on the control or on a fieldset around it; a removal ends the wait
      watcher.observe(target.documentElement, { attributes: true, attributeFilter: ['disabled'], subtree: true, childList: true });
    });
  };
  const onFocusIn = () => {
    if (dropped || timer !== undefined) forget();
  };
  target.addEventListener('focusout', onFocusOut, true);
  target.addEventListener('focusin', onFocusIn, true);
  return () => {
    forget();
    target.removeEventListener('focusout', onFocusOut, true);
    target.removeEventListener('focusin', onFocusIn, true);
  };
}
