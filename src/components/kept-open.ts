import { useLayoutEffect, useRef, type MouseEvent } from 'react';
import { REPEAT_AFTER_MS } from '../lib/press-window.ts';

/**
 * Props for a modal's backdrop and content: the second click of a double click on the button that
 * opened it lands on the backdrop, and must neither take the focus from the field the dialog put it
 * in (the backdrop's mousedown) nor close the dialog (the press outside, which Radix acts on at its click).
 */
export function useKeptOpenThroughDoubleClick(open: boolean) {
  const openedAt = useRef(0);
  useLayoutEffect(() => {
    if (open) openedAt.current = performance.now();
  }, [open]);
  const justOpened = () => performance.now() - openedAt.current < REPEAT_AFTER_MS;
  return {
    overlay: {
      onMouseDown: (event: MouseEvent) => {
        if (justOpened()) event.preventDefault();
      },
    },
    content: {
      onPointerDownOutside: (event: Event) => {
        if (justOpened()) event.preventDefault();
      },
    },
  };
}
