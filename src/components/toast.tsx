import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Toast } from 'radix-ui';

type Notify = (message: string) => void;

const ToastContext = createContext<Notify>(() => {});

/** Success messages after an action; announced politely, gone after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Array<{ id: number; message: string }>>([]);
  const notify = useCallback<Notify>((message) => {
    setToasts((current) => [...current.slice(-2), { id: Date.now() + Math.random(), message }]);
  }, []);
  return (
    <ToastContext.Provider value={notify}>
      <Toast.Provider swipeDirection="right" duration={5000}>
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            className="toast"
            onOpenChange={(open) => {
              if (!open) setToasts((current) => current.filter((item) => item.id !== toast.id));
            }}
          >
            <Toast.Description>{toast.message}</Toast.Description>
            <Toast.Close className="toast__close" aria-label="Dismiss">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" label="Notifications" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(ToastContext);
}
