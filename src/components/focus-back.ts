import { useEffect, useRef, useState } from 'react';

/**
 * For a form opened in place by a button (a reply, a thread on a line): once it closes, the focus
 * goes back to that button (or to `target`, when the button was drawn again) if it fell to the page
 * with the form, as a dialog gives it back. A focus the user moved elsewhere is left where it is.
 */
export function useFocusBackOnClose(target?: () => HTMLElement | null): void {
  // read while rendering the form: its field has not taken the focus yet
  const [opener] = useState(() => document.activeElement);
  const latest = useRef(target);
  latest.current = target;
  useEffect(() => () => focusIfDropped(() => latest.current?.() ?? opener), [opener]);
}

/** Once the screen has drawn what replaces a closed or removed control: the focus goes to `target` if it fell to the page with it. */
export function focusIfDropped(target: () => Element | null): void {
  setTimeout(() => {
    const back = target();
    const onPage = document.activeElement === document.body || document.activeElement === null;
    if (back instanceof HTMLElement && back.isConnected && onPage) back.focus();
  }, 0);
}
