import { errorText } from './error-panel.tsx';

/**
 * The line above a search picker's results: why the search failed, or that nothing matches. The
 * line is there even when empty, and a long search is cut to it, so the results box and the
 * dialog's buttons below it do not move under the pointer when it says nothing matches.
 */
export function PickerStatus({ error, empty }: { error: unknown; empty: string | null }) {
  if (error) {
    return (
      <p role="alert" className="picker-status">
        {errorText(error)}
      </p>
    );
  }
  return <p className="picker-status picker-status--empty muted">{empty}</p>;
}
