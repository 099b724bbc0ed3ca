import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import type { ToastItem } from './toast-list.tsx';
import { chunk, lazyPart } from './lazy-part.ts';

type Notify = (message: string) => void;

const ToastContext = createContext<Notify>(() => {});

// Radix's toasts (about 12 KB gzip with their layers) load with the first message, not with every first screen
const ToastList = lazyPart(chunk(() => import('./toast-list.tsx')), (module) => module.default);

/** Success messages after an action; announced politely, gone after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const notify = useCallback<Notify>((message) => {
    setToasts((current) => [...current.slice(-2), { id: Date.now() + Math.random(), message }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((item) => item.id !== id)), []);
  return (
    <ToastContext.Provider value={notify}>
      {children}
      {toasts.length ? (
        <ToastList toasts={toasts} onDismiss={dismiss} />
      ) : null}
    </ToastContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(ToastContext);
}
