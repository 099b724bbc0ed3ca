// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusThroughDisable } from './keep-focus.ts';

// jsdom does not blur a control that is disabled: the test blurs it, then disables it in the same task
function pressAndSend(button: HTMLButtonElement) {
  button.focus();
  button.blur();
  button.disabled = true;
}

// the focus comes back in a timer the mutation observer sets in a microtask: let that run first, so
// this wait's timer is set after it and ends after it however late a loaded machine runs them
const settle = async () => {
  await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('keepFocusThroughDisable', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    document.body.replaceChildren();
  });

  const page = (repeatWindowMs = 0) => {
    document.body.innerHTML = '<button id="send">Send</button><input id="other" aria-label="Other">';
    stop = keepFocusThroughDisable(document, repeatWindowMs);
    return { send: document.getElementById('send') as HTMLButtonElement, other: document.getElementById('other') as HTMLInputElement };
  };

  it('gives the focus back to a button once it is enabled again', async () => {
    const { send } = page();
    pressAndSend(send);
    await settle();
    expect(document.activeElement).toBe(document.body);
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(send);
  });

  it('waits out the repeat window of the press: a repeated Enter lands on the page, not on the button', async () => {
    const { send } = page(100);
    pressAndSend(send);
    await settle();
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(document.activeElement).toBe(send);
  });

  it('leaves the focus where the user put it meanwhile', async () => {
    const { send, other } = page();
    pressAndSend(send);
    other.focus();
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(other);
  });

  it('forgets a button that left the page', async () => {
    const { send } = page();
    pressAndSend(send);
    await settle();
    send.remove();
    await settle();
    send.disabled = false;
    document.body.append(send);
    await settle();
    expect(document.activeElement).toBe(document.body);
  });

  it('does not take the focus for a control the user left before it was disabled', async () => {
    const { send } = page();
    send.focus();
    send.blur();
    await settle();
    send.disabled = true;
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
