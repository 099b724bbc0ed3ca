import { errorText } from './error-panel.tsx';
import { UncertainWrite, type UncertainSignal } from './uncertain-write.tsx';
import type { WriteStatus } from './use-write.ts';

/** A write's refusal (what the server said), or its uncertain outcome, beside the control that sent it. */
export function WriteOutcome({ write, hint }: { write: UncertainSignal & { status: WriteStatus; error: Error | null }; hint?: string }) {
  if (write.isUncertain) return <UncertainWrite write={write} />;
  if (write.status !== 'refused') return null;
  return (
    <p className="form-error" role="alert">
      {errorText(write.error)}
      {hint ? ` ${hint}` : null}
    </p>
  );
}
