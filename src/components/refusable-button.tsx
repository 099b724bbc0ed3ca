import { useId, useState, type ButtonHTMLAttributes } from 'react';

type RefusableButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled'> & {
  /** Why the caller may not do this here, or null when they may. */
  refusal: string | null | undefined;
};

/**
 * A button whose action may be refused to this caller for this item (a protected branch, an Owner
 * a Maintainer cannot change, a runner of several projects). Refused, it stays in the keyboard's
 * way and says why: as its description to a screen reader, and in a bubble under it once pressed,
 * by a pointer, a finger or the keyboard. A disabled button with a title told a mouse's hover alone:
 * never a keyboard, which could not reach it, nor a phone, which does not hover. The press does
 * nothing else.
 */
export function RefusableButton({ refusal, onClick, onBlur, onKeyDown, className, children, ...button }: RefusableButtonProps) {
  const reasonId = useId();
  const [told, setTold] = useState(false);
  if (!refusal) {
    return (
      <button type="button" className={className} onClick={onClick} onBlur={onBlur} onKeyDown={onKeyDown} {...button}>
        {children}
      </button>
    );
  }
  return (
    <span className="refusable">
      <button
        type="button"
        className={className}
        aria-disabled="true"
        aria-describedby={reasonId}
        onClick={() => setTold((shown) => !shown)}
        onBlur={(event) => {
          onBlur?.(event);
          setTold(false);
        }}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          if (event.key === 'Escape' && told) {
            // the bubble closes, not the dialog or drawer around the button
            event.stopPropagation();
            setTold(false);
          }
        }}
        {...button}
      >
        {children}
      </button>
      {/* hidden, it still describes the button: a description may name hidden text */}
      <span id={reasonId} className="refusable__reason" hidden={!told}>
        {refusal}
      </span>
    </span>
  );
}
