import { UncertainWrite, type UncertainSignal } from './uncertain-write.tsx';

/** An error that belongs to no single field, shown above the form's buttons; with the form's write, what an uncertain outcome means. */
export function FormError({ message, write }: { message: string | null | undefined; write?: UncertainSignal }) {
  return (
    <>
      {message ? (
        <div className="form-error" role="alert">
          {message}
        </div>
      ) : null}
      {write ? <UncertainWrite write={write} /> : null}
    </>
  );
}

interface FormActionsProps {
  /** The form's write: its buttons are disabled while it runs, and an uncertain outcome is explained here. */
  write: UncertainSignal & { isPending: boolean };
  onCancel: () => void;
  submitLabel: string;
  /** What the submit button reads while the request runs, e.g. "Saving…". */
  pendingLabel: string;
}

/** Cancel and submit; both disabled while the request runs (the write itself sends once per press). */
export function FormActions({ write, onCancel, submitLabel, pendingLabel }: FormActionsProps) {
  const pending = write.isPending;
  return (
    <>
      <UncertainWrite write={write} />
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={pending} aria-busy={pending || undefined}>
          {pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
