import type { ReactNode } from 'react';
import { Dialog as RadixDialog, AlertDialog } from 'radix-ui';
import { useKeptOpenThroughDoubleClick } from './kept-open.ts';
import { UncertainWrite, type UncertainSignal } from './uncertain-write.tsx';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** A modal dialog with a title that names it for assistive technology. */
export function Dialog({ open, onOpenChange, title, description, children }: DialogProps) {
  const keptOpen = useKeptOpenThroughDoubleClick(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog__overlay" {...keptOpen.overlay} />
        <RadixDialog.Content className="dialog" {...keptOpen.content}>
          <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in words: the object and the consequence. */
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** The write the confirmation sends: disabled while it runs, an uncertain outcome explained. */
  write: UncertainSignal & { isPending: boolean };
  /** Busy for more than the write (a secret being handed over). */
  pending?: boolean;
  error?: ReactNode;
  destructive?: boolean;
  children?: ReactNode;
}

/** Confirms a destructive or irreversible action; the confirm button is disabled while it runs. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm, write, pending: busy, error, destructive, children }: ConfirmDialogProps) {
  const pending = write.isPending || busy;
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (!pending ? onOpenChange(next) : undefined)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog__overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog__title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="dialog__description">{description}</AlertDialog.Description>
          {children}
          {error ? (
            <div className="form-error" role="alert">
              {error}
            </div>
          ) : null}
          <UncertainWrite write={write} />
          <div className="dialog__actions">
            <AlertDialog.Cancel className="button" disabled={pending}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              className={destructive ? 'button button--danger' : 'button button--primary'}
              disabled={pending}
              aria-busy={pending || undefined}
              onClick={onConfirm}
            >
              {pending ? `${confirmLabel}…` : confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
