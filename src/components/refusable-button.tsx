import { useId, useState, type ButtonHTMLAttributes, type FocusEvent, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';

/**
 * A control refused to this caller for this item: it stays in the keyboard's way and says why, as
 * its description to a screen reader and in a bubble under it once pressed, by a pointer, a finger
 * or the keyboard. A disabled control with a title told a mouse's hover alone: never a keyboard,
 * which could not reach it, nor a phone, which does not hover. The press does nothing else.
 */
function useRefusal<E extends HTMLElement>(refusal: string, { onBlur, onKeyDown }: { onBlur?: (event: FocusEvent<E>) => void; onKeyDown?: (event: KeyboardEvent<E>) => void }) {
  const reasonId = useId();
  const [told, setTold] = useState(false);
  const control = {
    'aria-disabled': 'true' as const,
    'aria-describedby': reasonId,
    onClick: (event: MouseEvent<E>) => {
      // a refused checkbox stays as it is
      event.preventDefault();
      setTold((shown) => !shown);
    },
    onBlur: (event: FocusEvent<E>) => {
      onBlur?.(event);
      setTold(false);
    },
    onKeyDown: (event: KeyboardEvent<E>) => {
      onKeyDown?.(event);
      if (event.key === 'Escape' && told) {
        // the bubble closes, not the dialog or drawer around the control
        event.stopPropagation();
        setTold(false);
      }
    },
  };
  // hidden, it still describes the control: a description may name hidden text
  const reason = (
    <span id={reasonId} className="refusable__reason" hidden={!told}>
      {refusal}
    </span>
  );
  return { control, reason };
}

function Refused({ children, reason, start = false }: { children: ReactNode; reason: ReactNode; start?: boolean }) {
  return (
    // a control at the start of its row opens the bubble towards the row, not out of the table
    <span className={start ? 'refusable refusable--start' : 'refusable'}>
      {children}
      {reason}
    </span>
  );
}

type RefusableButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled'> & {
  /** Why the caller may not do this here, or null when they may. */
  refusal: string | null | undefined;
};

/** A button whose action may be refused to this caller for this item (a protected branch, an Owner a Maintainer cannot change, a runner of several projects). */
export function RefusableButton({ refusal, ...button }: RefusableButtonProps) {
  return refusal ? <RefusedButton refusal={refusal} {...button} /> : <button type="button" {...button} />;
}

function RefusedButton({ refusal, onClick: _onClick, onBlur, onKeyDown, ...button }: Omit<RefusableButtonProps, 'refusal'> & { refusal: string }) {
  const { control, reason } = useRefusal<HTMLButtonElement>(refusal, { onBlur, onKeyDown });
  return (
    <Refused reason={reason}>
      <button type="button" {...button} {...control} />
    </Refused>
  );
}

interface RefusableCheckboxProps {
  /** The checkbox's name (a row's selection: "Select runner #4"). */
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Why this item may not be chosen, or null when it may. */
  refusal: string | null | undefined;
}

/** A row's selection box, refused for an item the caller may not change (an instance runner in a project's fleet). */
export function RefusableCheckbox({ label, checked, onChange, refusal }: RefusableCheckboxProps) {
  return refusal ? (
    <RefusedCheckbox label={label} refusal={refusal} />
  ) : (
    <input type="checkbox" aria-label={label} checked={checked} onChange={(event) => onChange(event.target.checked)} />
  );
}

function RefusedCheckbox({ label, refusal }: { label: string; refusal: string }) {
  const { control, reason } = useRefusal<HTMLInputElement>(refusal, {});
  return (
    <Refused reason={reason} start>
      <input type="checkbox" aria-label={label} checked={false} readOnly {...control} />
    </Refused>
  );
}
