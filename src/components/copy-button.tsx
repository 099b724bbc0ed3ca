import { useNotify } from './toast.tsx';

/** Copies `text` to the clipboard and says so (or that the browser refused) in a toast; `label` names what is copied. */
export function CopyButton({ text, label, children = 'Copy' }: { text: string; label: string; children?: string }) {
  const notify = useNotify();
  return (
    <button
      type="button"
      className="button"
      aria-label={label}
      onClick={() => {
        const copied = navigator.clipboard?.writeText(text);
        if (!copied) return notify('The browser did not allow copying: select the text and copy it by hand.');
        copied.then(
          () => notify('Copied to the clipboard.'),
          () => notify('The browser did not allow copying: select the text and copy it by hand.'),
        );
      }}
    >
      {children}
    </button>
  );
}
