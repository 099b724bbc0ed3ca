import { useState } from 'react';

/** Copies `text` to the clipboard; says whether it worked (the text itself is never announced). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => {
          const done = navigator.clipboard?.writeText(text);
          if (!done) setCopied('failed');
          else done.then(() => setCopied('yes'), () => setCopied('failed'));
        }}
      >
        {label}
      </button>
      <span className="field__hint" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'The browser did not allow copying: select it and copy by hand.' : ''}
      </span>
    </>
  );
}
