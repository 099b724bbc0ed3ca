import { errorText } from '../../components/error-panel.tsx';
import { UncertainWrite, type UncertainSignal } from '../../components/uncertain-write.tsx';
import type { WriteStatus } from '../../components/use-write.ts';

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
