import type { SystemHook } from '../../api/system-hooks.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useDeleteHook } from './mutations.ts';
import { hookTitle } from './hook-title.ts';

export function DeleteHookDialog({ hook, onClose, onDeleted }: { hook: SystemHook; onClose: () => void; onDeleted: (hook: SystemHook) => void }) {
  const remove = useDeleteHook();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete ${hookTitle(hook)}?`}
      description={<>The system hook posting to {hook.url} is removed for good, with its secret token and URL variables. Its receiver gets no more events from this instance.</>}
      confirmLabel="Delete hook"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { hookId: hook.id },
          {
            onSuccess: () => {
              onClose();
              onDeleted(hook);
            },
          },
        )
      }
    />
  );
}
