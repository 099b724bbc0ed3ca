import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { whenIdle } from '../lib/idle.ts';

/**
 * A chunk's loader that keeps its module once it is in, so that what renders from it can do so at
 * once (`loaded` is required: a plain loader, which never says it is in, is not a chunk).
 */
export interface Chunk<M> {
  (): Promise<M>;
  readonly loaded: M | undefined;
}

/** One loader per chunk, shared by its parts and by whoever preloads it; a failed load is tried again next time. */
export function chunk<M>(load: () => Promise<M>): Chunk<M> {
  let pending: Promise<M> | undefined;
  const get = (() =>
    (pending ??= load().then(
      (module) => ((get as { loaded: M | undefined }).loaded = module),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ))) as Chunk<M>;
  return get;
}

/**
 * A chunk's module, loading it while `wanted`: undefined until it is in. A failed load goes to the
 * nearest error boundary, as with React's `lazy`.
 */
export function useChunk<M>(from: Chunk<M>, wanted = true): M | undefined {
  const [module, setModule] = useState(() => from.loaded);
  const [failure, setFailure] = useState<{ error: unknown }>();
  if (failure) throw failure.error;
  useEffect(() => {
    // the state, not the chunk: one that came in between the render and this effect (a preload
    // finishing just then) must still render the module, and nothing else would re-render it
    if (!wanted || module !== undefined) return;
    let current = true;
    from().then(
      (loaded) => current && setModule(() => loaded),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, [from, wanted, module]);
  return module ?? from.loaded;
}

/**
 * A component whose code is in a chunk of its own, as with React's `lazy`, but without suspending:
 * once the chunk is in (preloaded), its first render is the component's. `lazy` suspends on a
 * first render even then, and React holds the reveal of a suspended boundary until 300 ms after its
 * fallback showed, so a preloaded dialog took a third of a second to open. Until the chunk is in,
 * `fallback` shows.
 */
export function lazyPart<M, P extends object>(from: Chunk<M>, pick: (module: M) => ComponentType<P>, fallback: ReactNode | ((props: P) => ReactNode) = null): ComponentType<P> {
  return function LazyPart(props: P) {
    const module = useChunk(from);
    if (module) return createElement(pick(module), props);
    return typeof fallback === 'function' ? fallback(props) : fallback;
  };
}

/**
 * Fetches a screen's optional code (its dialogs) once `wanted`, when the browser is next idle: an
 * effect of a click's render runs before its frame is painted, and a cold load's before its rows.
 */
export function usePreloadWhenIdle(load: () => Promise<unknown>, wanted: boolean): void {
  useEffect(() => (wanted ? whenIdle(() => void load()) : undefined), [wanted, load]);
}
