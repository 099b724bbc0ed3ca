// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRoutesOnPress } from './press-preload.ts';

function link(href: string, attributes: Record<string, string> = {}): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = href;
  for (const [name, value] of Object.entries(attributes)) anchor.setAttribute(name, value);
  anchor.append(document.createElement('span'));
  document.body.append(anchor);
  return anchor;
}

const press = (element: Element, init: PointerEventInit = {}) => element.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, ...init }));

describe('startRoutesOnPress', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    document.body.replaceChildren();
  });

  it('starts the route of an in-app link on a plain primary press, from any element inside the link', () => {
    const preload = vi.fn();
    stop = startRoutesOnPress(document, { currentPath: () => '/', preload });
    press(link('/groups/7/members?page=2#top').firstElementChild!);
    expect(preload).toHaveBeenCalledWith('/groups/7/members?page=2#top');
  });

  it('starts nothing for other buttons, modifier keys, other origins, new tabs, downloads or the screen shown now', () => {
    const preload = vi.fn();
    stop = startRoutesOnPress(document, { currentPath: () => '/groups/7/members', preload });
    press(link('/users'), { button: 1 });
    press(link('/users'), { ctrlKey: true });
    press(link('/users'), { metaKey: true });
    press(link('/users'), { shiftKey: true });
    press(link('https://elsewhere.example/users'));
    press(link('/users', { target: '_blank' }));
    press(link('/users', { download: '' }));
    press(link('/groups/7/members?tab=all'));
    press(document.body);
    expect(preload).not.toHaveBeenCalled();
  });

  it('stops listening when removed', () => {
    const preload = vi.fn();
    startRoutesOnPress(document, { currentPath: () => '/', preload })();
    press(link('/users'));
    expect(preload).not.toHaveBeenCalled();
  });
});
