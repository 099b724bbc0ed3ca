import { useId, useRef, useState, type FormEvent } from 'react';
import type { DiffPosition, Discussion, DiscussionNote } from '../../api/merge-requests.ts';
import { useCommentDraft } from '../../components/comment-draft.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { NoteForm, type NoteFormProps } from '../../components/note-form.tsx';
import { NoteEditor, ProjectMarkdown } from '../../components/note-editor.tsx';
import { ChangeableNote } from '../../components/changeable-note.tsx';
import { Reactions } from '../../components/reactions.tsx';
import { mayChangeNote } from '../../components/use-project-caller.ts';
import { Time } from '../../components/time.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { commentRefusal, type MergeRequestCaller } from './merge-request-overview-access.ts';
import { isResolvable, isUnresolved, positionText, unresolvedText } from './merge-request-threads-text.ts';
import { useAddComment, useRefreshThreads, useReplyToDiscussion, useResolveDiscussion, useStartThread, type LinePosition, type MergeRequestRef } from './merge-request-overview-mutations.ts';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';
import { useAllDiscussions } from './all-discussions.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { onCurrentChanges, positionAnchor } from './line-anchors.ts';
import './merge-request-overview.css';

/** Entries rendered at a time: a request with hundreds of threads paints its first ones at once, the rest on request. */
export const ACTIVITY_STEP = 100;

function authorName(note: DiscussionNote): string {
  return note.author?.name ?? 'Someone';
}

function NoteBody({ note, target, caller }: { note: DiscussionNote; target: MergeRequestRef; caller: MergeRequestCaller }) {
  const refreshThreads = useRefreshThreads(target);
  const noteable = { projectId: target.projectId, mergeRequestIid: target.iid };
  return (
    <div className="thread__note">
      <ChangeableNote
        noteable={noteable}
        note={note}
        authorName={authorName(note)}
        mayChange={mayChangeNote(caller, note.author?.id)}
        refresh={refreshThreads}
        header={
          <>
            <strong>{authorName(note)}</strong> {note.author ? <span className="muted">@{note.author.username}</span> : null} · <Time value={note.created_at} relative />
            {note.updated_at && note.updated_at !== note.created_at ? <span className="muted"> (edited)</span> : null}
          </>
        }
      />
      <Reactions noteable={noteable} noteId={note.id} userId={caller.userId} canReact={caller.canWrite} label={`Reactions to the comment by ${authorName(note)}`} />
    </div>
  );
}

function ReplyForm({ target, discussionId, onDone, focusBackTo }: { target: MergeRequestRef; discussionId: string; onDone: () => void; focusBackTo: () => HTMLElement | null }) {
  const reply = useReplyToDiscussion(target);
  return (
    <DraftNoteForm
      target={target}
      draftPath={`merge_requests/${target.iid}/discussions/${discussionId}`}
      formLabel="Reply to the thread"
      editorLabel="Reply"
      write={reply}
      variables={(body) => ({ discussionId, body })}
      submit={['Reply', 'Replying…']}
      hint="Your reply is kept: send it again when you are ready."
      onDone={onDone}
      focusBackTo={focusBackTo}
      autoFocus
    />
  );
}

/** A reply, or a thread on a line: its text kept as a draft until it is sent. */
function DraftNoteForm<V>({ target, draftPath, onDone, ...form }: Omit<NoteFormProps<V>, 'projectId' | 'text' | 'onText' | 'onSent' | 'onCancel'> & {
  target: MergeRequestRef;
  draftPath: string;
  onDone: () => void;
}) {
  const draft = useCommentDraft(target.projectId, draftPath);
  return <NoteForm {...form} projectId={target.projectId} text={draft.text} onText={draft.change} onSent={() => (draft.clear(), onDone())} onCancel={onDone} />;
}

function Thread({ discussion, target, caller, headSha, mayResolve, mayComment, underItsLine = false }: {
  discussion: Discussion;
  target: MergeRequestRef;
  caller: MergeRequestCaller;
  /** The head of the changes as they are now: a thread on another is on an old version. */
  headSha?: string;
  mayResolve: boolean;
  mayComment: boolean;
  underItsLine?: boolean;
}) {
  const resolve = useResolveDiscussion(target);
  const [replying, setReplying] = useState(false);
  // the Reply button is drawn again when the reply form closes: the focus goes back to it
  const replyButton = useRef<HTMLButtonElement>(null);
  // a resolved thread is folded, as on the platform: its notes on request, folded again when resolved again
  const [openWhileResolved, setOpenWhileResolved] = useState(false);
  const notesId = useId();
  const [first] = discussion.notes;
  const last = discussion.notes[discussion.notes.length - 1];
  const resolvable = isResolvable(discussion);
  const unresolved = isUnresolved(discussion);
  const resolved = resolvable && !unresolved;
  const open = !resolved || openWhileResolved;
  const resolvedBy = discussion.notes.find((note) => note.resolved && note.resolved_by)?.resolved_by;
  const kind = discussion.individual_note ? 'Comment' : 'Thread';
  const count = discussion.notes.length;
  return (
    <li className="timeline__entry">
      <article aria-label={`${kind} by ${authorName(first)}`} className="note thread">
        {first.position && !underItsLine ? <ThreadPlace position={first.position} target={target} headSha={headSha} /> : null}
        {resolvable ? (
          <p className={unresolved ? 'badge badge--warning' : 'badge'}>
            {unresolved ? 'Unresolved' : `Resolved${resolvedBy ? ` by ${resolvedBy.name}` : ''}`}
          </p>
        ) : null}
        {open ? null : (
          <p className="muted">
            {formatCountOf(count, 'note', 'notes')}, the last by {authorName(last)} <Time value={last.created_at} relative />
          </p>
        )}
        {open ? (
          <ol id={notesId} className="thread__notes" aria-label={count > 1 ? 'Notes of the thread' : 'Note'}>
            {discussion.notes.map((note) => (
              <li key={note.id}>
                <NoteBody note={note} target={target} caller={caller} />
              </li>
            ))}
          </ol>
        ) : null}
        {/* the buttons keep their places when the thread folds, so the one pressed keeps the focus */}
        <div className="row-actions">
          {resolved ? (
            <button type="button" className="button" aria-expanded={open} aria-controls={open ? notesId : undefined} onClick={() => setOpenWhileResolved(!open)}>
              {open ? 'Hide thread' : 'Show thread'}
            </button>
          ) : null}
          {resolvable && mayResolve ? (
            <button
              type="button"
              className="button"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ discussionId: discussion.id, resolved: unresolved }, { onSuccess: () => setOpenWhileResolved(false) })}
            >
              {unresolved ? 'Resolve thread' : 'Unresolve thread'}
            </button>
          ) : null}
          {mayComment && open && !replying ? (
            <button ref={replyButton} type="button" className="button" onClick={() => setReplying(true)}>
              Reply…
            </button>
          ) : null}
        </div>
        <WriteOutcome write={resolve} />
        {replying && open ? <ReplyForm target={target} discussionId={discussion.id} onDone={() => setReplying(false)} focusBackTo={() => replyButton.current} /> : null}
      </article>
    </li>
  );
}

/**
 * Where a thread on the changes is: a link to its line in the Changes tab, scrolled to and marked
 * there; a thread started on an older version of the changes says so, and has no line there to link to.
 */
function ThreadPlace({ position, target, headSha }: { position: DiffPosition; target: MergeRequestRef; headSha: string | undefined }) {
  const anchor = onCurrentChanges(position, headSha) ? positionAnchor(position) : null;
  const text = <code>{positionText(position)}</code>;
  return (
    <p className="muted">
      {anchor ? (
        <>
          On{' '}
          <RouteLink to="/projects/$projectId/merge-requests/$mergeRequestIid/changes" params={{ projectId: target.projectId, mergeRequestIid: target.iid }} hash={anchor}>
            {text}
          </RouteLink>
        </>
      ) : (
        <>On an old version of the changes: {text}</>
      )}
    </p>
  );
}

function SystemEntry({ note, projectId }: { note: DiscussionNote; projectId: number }) {
  return (
    <li className="timeline__entry timeline__entry--system">
      <strong>{authorName(note)}</strong> <ProjectMarkdown projectId={projectId} source={note.body} /> <Time value={note.created_at} relative />
    </li>
  );
}

function NewCommentForm({ target, onPosted }: { target: MergeRequestRef; onPosted: () => void }) {
  const draft = useCommentDraft(target.projectId, `merge_requests/${target.iid}`);
  const thread = useStartThread(target);
  const comment = useAddComment(target);
  const pending = thread.isPending || comment.isPending;
  const empty = !draft.text.trim();
  const posted = () => {
    draft.clear();
    thread.reset();
    comment.reset();
    onPosted();
  };
  const send = (as: 'thread' | 'comment') => {
    if (empty || pending) return;
    // the other way's refusal no longer describes what is in the box
    (as === 'thread' ? comment : thread).reset();
    (as === 'thread' ? thread : comment).mutate({ body: draft.text }, { onSuccess: posted });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send('comment');
  };
  return (
    <form aria-label="Add a comment" onSubmit={submit} className="comment-form">
      <NoteEditor projectId={target.projectId} label="Comment" value={draft.text} onChange={draft.change} />
      <WriteOutcome write={thread} hint="Your text is kept: send it again when you are ready." />
      <WriteOutcome write={comment} hint="Your text is kept: send it again when you are ready." />
      <p className="muted">A thread can be resolved, and unresolved threads can keep the request from merging; a comment is just said.</p>
      <span className="row-actions">
        <button type="button" className="button button--primary" disabled={pending || empty} onClick={() => send('thread')}>
          {thread.isPending ? 'Starting the thread…' : 'Start a thread'}
        </button>
        <button type="submit" className="button" disabled={pending || empty}>
          {comment.isPending ? 'Commenting…' : 'Comment'}
        </button>
      </span>
    </form>
  );
}

/** The request's threads and system notes, oldest first; resolve, reply, and a new comment or thread at the end. */
export function MergeRequestActivity({ target, caller, headSha, locked, mayResolve }: { target: MergeRequestRef; caller: MergeRequestCaller; headSha: string | undefined; locked: boolean; mayResolve: boolean }) {
  const { query, discussions } = useAllDiscussions(target);
  const { hasNextPage, fetchNextPage } = query;
  const [shown, setShown] = useState(ACTIVITY_STEP);
  const unresolved = discussions.filter(isUnresolved).length;
  const anyResolvable = discussions.some(isResolvable);
  const refusal = commentRefusal(caller, locked);
  const total = query.data?.pages[0]?.total;
  return (
    <section aria-label="Activity" className="timeline">
      <h2>Activity</h2>
      {query.data && anyResolvable ? (
        <p className={unresolved ? 'notice' : 'muted'} role="status">
          {unresolvedText(unresolved)}
          {hasNextPage ? ' so far' : ''}
        </p>
      ) : null}
      {query.isPending ? <p role="status">Loading the activity…</p> : null}
      {query.isError ? <ErrorPanel error={query.error} onRetry={() => void (query.data ? fetchNextPage() : query.refetch())} /> : null}
      {query.data && !discussions.length ? <p className="muted">No activity yet.</p> : null}
      <ol className="timeline__list" aria-label="Activity entries">
        {discussions.slice(0, shown).map((discussion) =>
          discussion.notes[0].system ? (
            <SystemEntry key={discussion.id} note={discussion.notes[0]} projectId={target.projectId} />
          ) : (
            <Thread key={discussion.id} discussion={discussion} target={target} caller={caller} headSha={headSha} mayResolve={mayResolve} mayComment={refusal === null} />
          ),
        )}
      </ol>
      {hasNextPage ? (
        <p role="status">
          Loading more threads ({formatCount(discussions.length)}
          {total ? ` of ${formatCount(total)}` : ''} so far)…
        </p>
      ) : null}
      {discussions.length > shown ? (
        <p>
          Showing {formatCount(shown)} of {formatCount(discussions.length)} entries.{' '}
          <button type="button" className="button" onClick={() => setShown((count) => count + ACTIVITY_STEP)}>
            Show {Math.min(ACTIVITY_STEP, discussions.length - shown)} more
          </button>
        </p>
      ) : null}
      {refusal ? (
        <p className="notice" role="note">
          {refusal}
        </p>
      ) : (
        // a new entry is the last one: every entry shows, so it is seen where it was posted
        <NewCommentForm target={target} onPosted={() => setShown(Number.MAX_SAFE_INTEGER)} />
      )}
    </section>
  );
}

/**
 * Under a line of the changes: the threads on it, and the form of a new one when the reader pressed
 * "Comment on line …" there. The draft is kept per line, as the request's own comment is.
 */
export function LineThreads({ target, caller, threads, composing, onClose, mayResolve, mayComment }: {
  target: MergeRequestRef;
  caller: MergeRequestCaller;
  threads: readonly Discussion[];
  /** Where a new thread goes, when one is being written on this line. */
  composing: { anchor: string; position: LinePosition; label: string } | null;
  onClose: () => void;
  mayResolve: boolean;
  mayComment: boolean;
}) {
  return (
    <div className="line-threads">
      {threads.length ? (
        <ol className="timeline__list" aria-label="Threads on this line">
          {threads.map((discussion) => (
            <Thread key={discussion.id} discussion={discussion} target={target} caller={caller} mayResolve={mayResolve} mayComment={mayComment} underItsLine />
          ))}
        </ol>
      ) : null}
      {composing ? <LineThreadForm key={composing.anchor} target={target} composing={composing} onClose={onClose} /> : null}
    </div>
  );
}

function LineThreadForm({ target, composing, onClose }: { target: MergeRequestRef; composing: { anchor: string; position: LinePosition; label: string }; onClose: () => void }) {
  const thread = useStartThread(target);
  return (
    <DraftNoteForm
      target={target}
      draftPath={`merge_requests/${target.iid}/lines/${composing.anchor}`}
      formLabel={`New thread on ${composing.label}`}
      editorLabel="Comment"
      write={thread}
      variables={(body) => ({ body, position: composing.position })}
      submit={['Start a thread', 'Starting the thread…']}
      hint="Your text is kept: send it again when you are ready."
      onDone={onClose}
      autoFocus
    />
  );
}
