// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar, cssUrl } from './avatar.tsx';

const PICTURE = 'https://gitlab.example.com/uploads/-/system/user/avatar/12/me.png?width=28';
const nextFrameAndTask = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 5)));

describe('Avatar', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const host = document.createElement('div');
  afterEach(() => (host.innerHTML = ''));

  it('draws an http(s) picture as the background of a hidden box, once the box has been shown', async () => {
    expect(renderToStaticMarkup(<Avatar url={PICTURE} name="Maya Chen" />)).toBe('<span class="avatar avatar--28" aria-hidden="true"></span>');
    const root = createRoot(host);
    await act(async () => root.render(<><Avatar url={PICTURE} name="Maya Chen" /><Avatar url={`${PICTURE}&2`} name="Ravi Kumar" /></>));
    await act(nextFrameAndTask);
    const boxes = [...host.querySelectorAll<HTMLElement>('.avatar')];
    expect(boxes.map((box) => box.style.backgroundImage)).toEqual([`url("${PICTURE}")`, `url("${PICTURE}&2")`]);
    expect(boxes[0]!.getAttribute('aria-hidden')).toBe('true');
    act(() => root.unmount());
  });

  it('loads nothing from a URL that is not http(s), and shows the initial instead', () => {
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'not a url', null]) {
      const markup = renderToStaticMarkup(<Avatar url={url} name="élodie Martin" size={24} />);
      expect(markup, String(url)).toBe('<span class="avatar avatar--24 avatar--blank" aria-hidden="true">É</span>');
    }
  });
});

describe('cssUrl', () => {
  it('keeps a URL inside its CSS string whatever it holds', () => {
    expect(cssUrl('https://x.example/a"b\\c')).toBe('url("https://x.example/a\\22 b\\5c c")');
    expect(cssUrl('https://x.example/a\nb')).toBe('url("https://x.example/a\\a b")');
  });
});
