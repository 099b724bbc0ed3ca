import type { FormEvent } from 'react';
import { useFocusBackOnClose } from './focus-back.ts';
import { NoteEditor } from './note-editor.tsx';
import type { Write } from './use-write.ts';
import { WriteOutcome } from './write-outcome.tsx';

export interface NoteFormProps<V> {
  projectId: number;
  formLabel: string;
  editorLabel: string;
  /** The text as typed, kept by the caller (a draft that survives a reload, or the edit's own). */
  text: string;
  onText: (text: string) => void;
  write: Write<unknown, V>;
  variables: (body: string) => V;
  submit: readonly [string, string];
  hint: string;
  onSent: () => void;
  onCancel: () => void;
  autoFocus?: boolean;
  /** Where the focus goes once the form closes, when not the button that opened it. */
  focusBackTo?: () => HTMLElement | null;
}

/** A note's text sent by one write, with Cancel, opened in place: a reply, a thread on a line, an edit. */
export function NoteForm<V>({ projectId, formLabel, editorLabel, text, onText, write, variables, submit: [submitLabel, pendingLabel], hint, onSent, onCancel, autoFocus, focusBackTo }: NoteFormProps<V>) {
  useFocusBackOnClose(focusBackTo);
  const empty = !text.trim();
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (empty) return;
    write.mutate(variables(text), { onSuccess: onSent });
  };
  return (
    <form aria-label={formLabel} onSubmit={send} className="comment-form">
      <NoteEditor projectId={projectId} label={editorLabel} value={text} onChange={onText} autoFocus={autoFocus} />
      <WriteOutcome write={write} hint={hint} />
      <span className="row-actions">
        <button type="submit" className="button button--primary" disabled={write.isPending || empty}>
          {write.isPending ? pendingLabel : submitLabel}
        </button>
        <button type="button" className="button" disabled={write.isPending} onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
