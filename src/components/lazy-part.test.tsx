// @vitest-environment jsdom
import { Component, act, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunk, lazyPart, type Chunk } from './lazy-part.ts';

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
  }
}

describe('lazyPart', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const host = document.createElement('div');
  afterEach(() => (host.innerHTML = ''));

  it('renders at once, in the same commit, once its chunk is preloaded', async () => {
    const load = vi.fn(async () => ({ Greeting }));
    const module = chunk(load);
    const Part = lazyPart(module, (loaded) => loaded.Greeting);
    await module();
    const root = createRoot(host);
    // no awaiting: the first commit already holds the part
    act(() => root.render(<Part name="Maya" />));
    expect(host.innerHTML).toBe('<p>Hello Maya</p>');
    expect(load).toHaveBeenCalledTimes(1);
    act(() => root.unmount());
  });

  it('shows its fallback until its chunk is in, loading it once for every part of it', async () => {
    let arrive: (module: { Greeting: typeof Greeting }) => void = () => {};
    const load = vi.fn(() => new Promise<{ Greeting: typeof Greeting }>((resolve) => (arrive = resolve)));
    const module = chunk(load);
    const Part = lazyPart(module, (loaded) => loaded.Greeting, ({ name }) => <p>Loading {name}</p>);
    const root = createRoot(host);
    act(() => root.render(<><Part name="Maya" /><Part name="Ravi" /></>));
    expect(host.innerHTML).toBe('<p>Loading Maya</p><p>Loading Ravi</p>');
    await act(async () => arrive({ Greeting }));
    expect(host.innerHTML).toBe('<p>Hello Maya</p><p>Hello Ravi</p>');
    expect(load).toHaveBeenCalledTimes(1);
    act(() => root.unmount());
  });

  it('shows itself when its chunk comes in between its render and its effect (an idle preload finishing just then)', async () => {
    const arrived = { Greeting };
    // a chunk still loading when the part renders, in by the time its effect runs
    const module = Object.assign(() => Promise.resolve(arrived), { loaded: undefined as typeof arrived | undefined }) as Chunk<typeof arrived>;
    const Part = lazyPart(module, (loaded) => loaded.Greeting, ({ name }) => <p>Loading {name}</p>);
    function ChunkArrives() {
      useLayoutEffect(() => void ((module as { loaded?: typeof arrived }).loaded = arrived), []);
      return null;
    }
    const root = createRoot(host);
    await act(async () => root.render(<><Part name="Maya" /><ChunkArrives /></>));
    expect(host.innerHTML).toBe('<p>Hello Maya</p>');
    act(() => root.unmount());
  });

  it('gives a failed load to the error boundary, and loads again on the next try', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('The chunk did not load')).mockResolvedValue({ Greeting });
    const module = chunk(load as () => Promise<{ Greeting: typeof Greeting }>);
    const Part = lazyPart(module, (loaded) => loaded.Greeting);
    const root = createRoot(host);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => root.render(<Boundary><Part name="Maya" /></Boundary>));
    expect(host.innerHTML).toBe('<p role="alert">The chunk did not load</p>');
    await act(async () => root.render(<Boundary key="again"><Part name="Maya" /></Boundary>));
    expect(host.innerHTML).toBe('<p>Hello Maya</p>');
    expect(load).toHaveBeenCalledTimes(2);
    act(() => root.unmount());
    vi.restoreAllMocks();
  });
});
