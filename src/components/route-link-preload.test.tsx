// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryHistory, createRootRoute, createRouter, RouterContextProvider } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteLink } from './route-link.tsx';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RouteLink hover preload', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const host = document.createElement('div');
  document.body.append(host);
  afterEach(() => (host.innerHTML = ''));

  async function renderLink() {
    const router = createRouter({ routeTree: createRootRoute(), history: createMemoryHistory() });
    const preload = vi.spyOn(router, 'preloadRoute').mockResolvedValue(undefined);
    const root = createRoot(host);
    await act(async () => root.render(<RouterContextProvider router={router}><RouteLink to="/users/">People</RouteLink></RouterContextProvider>));
    return { link: host.querySelector('a')!, preload, root };
  }

  it('preloads a route hovered for 50 ms', async () => {
    const { link, preload, root } = await renderLink();
    await act(async () => void link.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
    await act(() => pause(80));
    expect(preload).toHaveBeenCalledTimes(1);
    act(() => root.unmount());
  });

  it('drops the hover preload once the link is pressed: the press has started the route, and a late preload would hold up its first frame', async () => {
    const { link, preload, root } = await renderLink();
    await act(async () => void link.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
    await act(async () => void link.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true })));
    await act(() => pause(80));
    expect(preload).not.toHaveBeenCalled();
    act(() => root.unmount());
  });
});
