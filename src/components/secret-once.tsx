import { useState } from 'react';
import { Dialog } from './dialog.tsx';

interface SecretOnceProps {
  /** The secret, or null when there is none to show (the dialog is closed). */
  secret: string | null;
  title: string;
  /** Forget the secret: the caller drops its only copy when this runs. */
  onDone: () => void;
}

/**
 * A secret the platform returns once (a new or rotated token): shown once, with a copy button,
 * kept only by the caller's state, and gone when the dialog closes.
 */
export function SecretOnce({ secret, title, onDone }: SecretOnceProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  // Escape or a click outside may be a slip: the secret goes only once that is confirmed
  const [leaving, setLeaving] = useState(false);
  const close = () => {
    setCopied(null);
    setLeaving(false);
    onDone();
  };
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => (!open ? setLeaving(true) : undefined)} title={title}>
      <p className="notice" role="note">
        Copy it now: this is the only time the token is shown. Once this dialog closes it cannot be shown again, only rotated.
      </p>
      <div className="secret">
        <label className="field__label" htmlFor="secret-once-value">
          Token
        </label>
        <div className="secret__row">
          <input id="secret-once-value" className="input secret__value" readOnly value={secret ?? ''} spellCheck={false} autoComplete="off" onFocus={(event) => event.currentTarget.select()} />
          <button
            type="button"
            className="button"
            onClick={() => {
              if (!secret) return;
              navigator.clipboard?.writeText(secret).then(
                () => setCopied('yes'),
                () => setCopied('failed'),
              ) ?? setCopied('failed');
            }}
          >
            Copy token
          </button>
        </div>
        <p className="field__hint" role="status">
          {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'The browser did not allow copying: select the token and copy it by hand.' : ''}
        </p>
      </div>
      {leaving ? (
        <div className="form-error" role="alert">
          <p>Close without the token? It cannot be shown again: only a rotation gives a new one.</p>
          <div className="dialog__actions">
            <button type="button" className="button" autoFocus onClick={() => setLeaving(false)}>
              Keep it open
            </button>
            <button type="button" className="button button--danger" onClick={close}>
              Close, the token is gone
            </button>
          </div>
        </div>
      ) : null}
      <div className="dialog__actions">
        <button type="button" className="button button--primary" onClick={close}>
          I have stored the token
        </button>
      </div>
    </Dialog>
  );
}
