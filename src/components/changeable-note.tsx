import { useEffect, useRef, useState, type ReactNode } from 'react';
import { deleteNote, updateNote, type Noteable } from '../api/notes.ts';
import { useConnection } from '../api/react.ts';
import { ConfirmDialog } from './dialog.tsx';
import { errorText } from './error-panel.tsx';
import { focusIfDropped } from './focus-back.ts';
import { ProjectMarkdown } from './note-editor.tsx';
import { NoteForm } from './note-form.tsx';
import { REPEAT_AFTER_MS, useWrite, type Write } from './use-write.ts';

interface ChangeableNoteProps {
  noteable: Noteable;
  note: { id: number; body: string };
  /** Who wrote it, as the delete's confirmation names them. */
  authorName: string;
  /** Its author, the project's Maintainers and Owners, administrators (`mayChangeNote`). */
  mayChange: boolean;
  /** Refetches what shows the note and counts notes. */
  refresh: () => Promise<unknown>;
  header: ReactNode;
}

/** A note's header and text; for who may change it, "Edit comment" in place and "Delete comment" confirmed. */
export function ChangeableNote(props: ChangeableNoteProps) {
  return props.mayChange ? (
    <NoteWithChanges {...props} />
  ) : (
    <>
      <header className="note__header">{props.header}</header>
      <ProjectMarkdown projectId={props.noteable.projectId} source={props.note.body} />
    </>
  );
}

function NoteWithChanges({ noteable, note, authorName, refresh, header }: ChangeableNoteProps) {
  const connection = useConnection();
  // the same text saved again later is a choice, not a double press
  const edit = useWrite({ send: ({ body }: { body: string }) => updateNote(connection, { noteable, noteId: note.id, body }), refresh, repeatAfterMs: REPEAT_AFTER_MS });
  // once the comment, and the button that deleted it, are gone: the focus goes to the entry beside it
  const besideIt = useRef<HTMLElement | null>(null);
  const deleted = useRef(false);
  useEffect(() => () => (deleted.current ? focusIfDropped(() => besideIt.current) : undefined), []);
  // marked before the refresh that removes this comment (and with it the screen a callback would reach)
  const remove = useWrite({ send: () => deleteNote(connection, { noteable, noteId: note.id }), onDone: () => void (deleted.current = true), refresh });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // drawn again when the edit closes: the focus goes back to it
  const editButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <header className="note__header">
        {header}
        {editing ? null : (
          <span className="row-actions">
            <button ref={editButton} type="button" className="button" onClick={() => (edit.reset(), setEditing(true))}>
              Edit comment
            </button>
            <button type="button" className="button button--danger-quiet" onClick={(event) => (remove.reset(), (besideIt.current = neighbourControl(event.currentTarget)), setConfirming(true))}>
              Delete comment
            </button>
          </span>
        )}
      </header>
      {editing ? (
        <EditNoteForm projectId={noteable.projectId} body={note.body} edit={edit} onClose={() => setEditing(false)} focusBackTo={() => editButton.current} />
      ) : (
        <ProjectMarkdown projectId={noteable.projectId} source={note.body} />
      )}
      {confirming ? (
        <ConfirmDialog
          open
          onOpenChange={setConfirming}
          title="Delete this comment?"
          description={`The comment by ${authorName} is deleted for everyone, with its reactions. This cannot be undone.`}
          confirmLabel="Delete comment"
          destructive
          write={remove}
          error={remove.status === 'refused' ? errorText(remove.error) : undefined}
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        />
      ) : null}
    </>
  );
}

/**
 * The first control of the nearest entry beside this one (after it, else before it); where the
 * comment was its list's only entry (a thread of one note), beside the entry that holds that list.
 */
function neighbourControl(from: HTMLElement): HTMLElement | null {
  for (let entry = from.closest('li'); entry; entry = entry.parentElement?.closest('li') ?? null) {
    for (const step of ['nextElementSibling', 'previousElementSibling'] as const) {
      for (let sibling = entry[step]; sibling; sibling = sibling[step]) {
        const control = sibling.querySelector<HTMLElement>('button:not(:disabled), a[href], textarea, input');
        if (control) return control;
      }
    }
  }
  return null;
}

function EditNoteForm({ projectId, body, edit, onClose, focusBackTo }: { projectId: number; body: string; edit: Write<unknown, { body: string }>; onClose: () => void; focusBackTo: () => HTMLElement | null }) {
  const [draft, setDraft] = useState(body);
  return (
    <NoteForm
      projectId={projectId}
      formLabel="Edit comment"
      editorLabel="Edited comment"
      text={draft}
      onText={setDraft}
      write={edit}
      variables={(text) => ({ body: text })}
      submit={['Save comment', 'Saving…']}
      hint="Your text is kept: save it again when you are ready."
      onSent={onClose}
      onCancel={onClose}
      focusBackTo={focusBackTo}
      autoFocus
    />
  );
}
