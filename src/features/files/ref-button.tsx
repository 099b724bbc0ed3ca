import { forwardRef, type ButtonHTMLAttributes } from 'react';

/** The ref switcher's button: the same before its popover has loaded as after (ref-switcher.tsx). */
export const RefButton = forwardRef<HTMLButtonElement, { gitRef: string } & ButtonHTMLAttributes<HTMLButtonElement>>(function RefButton({ gitRef, ...button }, ref) {
  return (
    <button ref={ref} type="button" className="button" aria-label={`Switch branch or tag (current: ${gitRef})`} aria-haspopup="dialog" {...button}>
      <span aria-hidden="true">⎇ </span>
      {gitRef}
    </button>
  );
});
