import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ApiError } from '../api/errors.ts';
import { REPEAT_AFTER_MS } from '../lib/press-window.ts';

/**
 * The console's one way to send a write. A press sends at most once: a second call while the
 * first is in flight, or with the same input after it succeeded, is dropped, whatever double
 * clicks, repeated Enter or a click during validation do. The platform does not make writes
 * idempotent (a second POST is a second hook, a second rotate revokes the token family).
 */

export type WriteStatus = 'idle' | 'pending' | 'done' | 'refused' | 'uncertain';

export interface WriteCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => void;
  /** A refusal (4xx), or a failure after which the write may have happened (see `uncertain`). */
  onError?: (error: Error, variables: TVariables) => void;
  onSettled?: () => void;
}

export interface WriteState<TData, TVariables> {
  status: WriteStatus;
  data: TData | undefined;
  error: Error | null;
  variables: TVariables | undefined;
  /** After an uncertain outcome: what the write touched is being refetched. */
  checking: boolean;
  /** When that refetch settled: the screen shows what the server holds since then. */
  checkedAt: number | null;
  /** A toggle answered within the double click's span: its button stays disabled until that ends. */
  cooling: boolean;
}

export interface WriteConfig<TData, TVariables> {
  send: (variables: TVariables) => Promise<TData>;
  /**
   * Refetches what the write changed: after a success (the write stays pending until it
   * settles) and after an uncertain outcome (`done` false), to show what the server now holds.
   */
  refresh: (variables: TVariables, done: boolean) => Promise<unknown>;
  /** Cache work of a success before the refresh, e.g. dropping a deleted object's detail. */
  onDone?: (data: TData, variables: TVariables) => void;
  /**
   * A write with no input that may be repeated on purpose (test a hook): the same call is
   * sent again once this long has passed since its answer, longer than a double click.
   */
  repeatAfterMs?: number;
  /**
   * For a toggle (follow and unfollow, close and reopen, resolve and unresolve): what a call
   * toggles. A call on the same thing within REPEAT_AFTER_MS of the last one sent is the second
   * press of a double click, dropped though its input is now the opposite: the first write can
   * be answered, and the button turned, before a person's second click lands. Undefined: not a toggle.
   */
  toggleOf?: (variables: TVariables) => string | undefined;
}

export { REPEAT_AFTER_MS };

const IDLE: WriteState<never, never> = { status: 'idle', data: undefined, error: null, variables: undefined, checking: false, checkedAt: null, cooling: false };

/** A refusal changed nothing on the server: the same request may go again once corrected. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && error.status >= 400 && error.status < 500;
}

/** The same input gives the same key, whatever the order of an object's properties. */
export function writeKey(value: unknown): string {
  const key = JSON.stringify(value, (_name, item: unknown) => {
    if (item instanceof Set) return [...item];
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return key ?? 'undefined';
}

/** `toggleOf` of an edit whose on-off fields (state, lock, draft) are toggles, and its other fields not. */
export function toggledField<T extends object>(fields: ReadonlyArray<keyof T & string>): (changes: T) => string | undefined {
  return (changes) => fields.find((field) => changes[field] !== undefined);
}

/** The latch and the outcome of one write trigger; React-free, so it is tested as it runs. */
export class WriteGate<TData, TVariables> {
  #state: WriteState<TData, TVariables> = IDLE;
  /** The key of the last request that may have changed something; null when armed. */
  #sentKey: string | null = null;
  #inFlight = false;
  /** Bumped by `arm()`: an answer to an older request no longer changes what is shown. */
  #generation = 0;
  #callbacks: WriteCallbacks<TData, TVariables> | undefined;
  #listeners = new Set<() => void>();
  #repeatTimer: ReturnType<typeof setTimeout> | undefined;
  /** The thing the last toggle call toggled, and when it was sent. */
  #lastToggle: { of: string; at: number } | null = null;
  #coolingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly config: WriteConfig<TData, TVariables>) {}

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  getState = () => this.#state;

  /** Sends unless a request is in flight, a check is running, or this same input already went; false when dropped. */
  send = (variables: TVariables, callbacks?: WriteCallbacks<TData, TVariables>): boolean => {
    const key = writeKey(variables);
    if (this.#inFlight || this.#state.checking || this.#sentKey === key) return false;
    const of = this.config.toggleOf?.(variables);
    const last = this.#lastToggle;
    if (of !== undefined && last?.of === of && Date.now() - last.at < REPEAT_AFTER_MS) return false;
    const toggle = of === undefined ? null : { of, at: Date.now() };
    if (toggle) this.#lastToggle = toggle;
    void this.#run(variables, key, callbacks, toggle);
    return true;
  };

  /** After an uncertain outcome has been checked: sends the same request once more. */
  tryAgain = (): boolean => {
    const { status, checking, variables } = this.#state;
    if (status !== 'uncertain' || checking || variables === undefined) return false;
    return this.send(variables, this.#callbacks);
  };

  /** Forgets the outcome and allows one request: when a dialog opens for an object. */
  arm = () => {
    this.#generation++;
    this.#sentKey = null;
    this.#callbacks = undefined;
    clearTimeout(this.#repeatTimer);
    clearTimeout(this.#coolingTimer);
    this.#set(IDLE);
  };

  async #run(variables: TVariables, key: string, callbacks: WriteCallbacks<TData, TVariables> | undefined, toggle: { at: number } | null) {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#inFlight = true;
    this.#sentKey = key;
    this.#callbacks = callbacks;
    clearTimeout(this.#repeatTimer);
    clearTimeout(this.#coolingTimer);
    this.#set({ ...IDLE, status: 'pending', variables });
    // callbacks reach a screen that still shows this write, as TanStack's mutate does
    const notify = (call: (callbacks: WriteCallbacks<TData, TVariables>) => void) => {
      if (current() && callbacks && this.#listeners.size) call(callbacks);
    };
    let data: TData;
    try {
      data = await this.config.send(variables);
    } catch (caught) {
      this.#inFlight = false;
      const error = caught instanceof Error ? caught : new Error(String(caught));
      if (!current()) return;
      if (isRefusal(error)) {
        // nothing changed on the server: the same press may go again at once
        this.#sentKey = null;
        this.#lastToggle = null;
        this.#set({ ...IDLE, status: 'refused', error, variables });
        notify((c) => (c.onError?.(error, variables), c.onSettled?.()));
        return;
      }
      this.#set({ ...IDLE, status: 'uncertain', error, variables, checking: true });
      notify((c) => c.onError?.(error, variables));
      await this.config.refresh(variables, false).catch(() => undefined);
      if (!current()) return;
      this.#sentKey = null;
      this.#set({ ...this.#state, checking: false, checkedAt: Date.now() });
      notify((c) => c.onSettled?.());
      return;
    }
    if (current()) this.config.onDone?.(data, variables);
    await this.config.refresh(variables, true).catch(() => undefined);
    this.#inFlight = false;
    if (!current()) return;
    // a toggle's button turns now; it stays disabled until a double click's second press is over
    const coolingFor = toggle ? toggle.at + REPEAT_AFTER_MS - Date.now() : 0;
    this.#set({ ...IDLE, status: 'done', data, variables, cooling: coolingFor > 0 });
    if (coolingFor > 0) {
      this.#coolingTimer = setTimeout(() => {
        if (current()) this.#set({ ...this.#state, cooling: false });
      }, coolingFor);
    }
    notify((c) => (c.onSuccess?.(data, variables), c.onSettled?.()));
    const { repeatAfterMs } = this.config;
    if (repeatAfterMs !== undefined) {
      this.#repeatTimer = setTimeout(() => {
        if (current()) this.#sentKey = null;
      }, repeatAfterMs);
    }
  }

  #set(state: WriteState<TData, TVariables>) {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}

/** What a screen reads and calls; shaped like TanStack's mutation result so triggers read the same. */
export interface Write<TData, TVariables> extends WriteState<TData, TVariables> {
  /** In flight, checking what an uncertain write did, or a toggle cooling: the trigger is disabled. */
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  /** A network error or 5xx: the write may have happened. */
  isUncertain: boolean;
  mutate: (variables: TVariables, callbacks?: WriteCallbacks<TData, TVariables>) => boolean;
  tryAgain: () => boolean;
  /** Forgets the outcome (and any secret it carried) and allows one request. */
  reset: () => void;
}

/** A write of the console, sent once per press; the area's hook names what it refreshes. */
export function useWrite<TData, TVariables>(config: WriteConfig<TData, TVariables>): Write<TData, TVariables> {
  const latest = useRef(config);
  useEffect(() => {
    latest.current = config;
  });
  const [gate] = useState(
    () =>
      new WriteGate<TData, TVariables>({
        send: (variables) => latest.current.send(variables),
        refresh: (variables, done) => latest.current.refresh(variables, done),
        onDone: (data, variables) => latest.current.onDone?.(data, variables),
        repeatAfterMs: config.repeatAfterMs,
        toggleOf: config.toggleOf,
      }),
  );
  const state = useSyncExternalStore(gate.subscribe, gate.getState, gate.getState);
  return useMemo(
    () => ({
      ...state,
      isPending: state.status === 'pending' || state.checking || state.cooling,
      isSuccess: state.status === 'done',
      isError: state.status === 'refused' || state.status === 'uncertain',
      isUncertain: state.status === 'uncertain',
      mutate: gate.send,
      tryAgain: gate.tryAgain,
      reset: gate.arm,
    }),
    [state, gate],
  );
}
