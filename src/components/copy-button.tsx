import { useState } from 'react';

/** Copies a text to the clipboard; the outcome is announced (copying may be refused by the browser). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <>
      <button
        type="button"
        className="button"
        aria-label={label}
        onClick={() => {
          const copying = navigator.clipboard?.writeText(text);
          if (!copying) return setCopied('failed');
          copying.then(
            () => setCopied('yes'),
            () => setCopied('failed'),
          );
        }}
      >
        Copy
      </button>
      <span className="sr-only" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'The browser did not allow copying: select the text and copy it by hand.' : ''}
      </span>
    </>
  );
}
