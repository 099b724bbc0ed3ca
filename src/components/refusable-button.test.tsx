// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefusableButton } from './refusable-button.tsx';

describe('RefusableButton', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  let host: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    host = document.body.appendChild(document.createElement('div'));
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  const button = () => host.querySelector('button')!;
  const reason = () => document.getElementById(button().getAttribute('aria-describedby')!)!;

  it('allowed, is a plain button that acts', () => {
    const onPress = vi.fn();
    act(() => root.render(<RefusableButton refusal={null} className="button" onClick={onPress}>Delete</RefusableButton>));
    expect(button().getAttribute('aria-disabled')).toBeNull();
    expect(button().getAttribute('aria-describedby')).toBeNull();
    act(() => button().click());
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('refused, stays focusable, is described by its reason, and a press shows the reason instead of acting', () => {
    const onPress = vi.fn();
    act(() => root.render(<RefusableButton refusal="This branch is protected." className="button" onClick={onPress}>Delete</RefusableButton>));
    expect(button().disabled).toBe(false);
    expect(button().getAttribute('aria-disabled')).toBe('true');
    expect(reason().textContent).toBe('This branch is protected.');
    expect(reason().hidden).toBe(true);
    act(() => button().focus());
    act(() => button().click());
    expect(onPress).not.toHaveBeenCalled();
    expect(reason().hidden).toBe(false);
    // a second press, Escape or leaving the button folds it
    act(() => button().click());
    expect(reason().hidden).toBe(true);
    act(() => button().click());
    act(() => void button().dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(reason().hidden).toBe(true);
    act(() => button().click());
    act(() => button().blur());
    expect(reason().hidden).toBe(true);
    expect(onPress).not.toHaveBeenCalled();
  });

  it('Escape on a shown reason stays with the button: a dialog around it is not closed', () => {
    const outer = vi.fn();
    act(() =>
      root.render(
        <div onKeyDown={(event) => event.key === 'Escape' && outer()}>
          <RefusableButton refusal="Only Owners can change an Owner">Edit</RefusableButton>
        </div>,
      ),
    );
    act(() => button().click());
    act(() => void button().dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(outer).not.toHaveBeenCalled();
    // with nothing shown, Escape goes on its way
    act(() => void button().dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(outer).toHaveBeenCalledTimes(1);
  });
});
