import { Toast } from 'radix-ui';

export interface ToastItem {
  id: number;
  message: string;
}

/** The messages on screen, announced politely by Radix and dismissed after a few seconds or by hand. */
export default function ToastList({ toasts, onDismiss }: { toasts: readonly ToastItem[]; onDismiss: (id: number) => void }) {
  return (
    <Toast.Provider swipeDirection="right" duration={5000}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className="toast"
          onOpenChange={(open) => {
            if (!open) onDismiss(toast.id);
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
  );
}
