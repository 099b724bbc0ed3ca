import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { issueEventsQueries, type IssueEvents } from '../../api/issues.ts';
import { notesQueries, type Note } from '../../api/notes.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { commentRefusal, mayWriteInternal, type IssueCaller } from './issue-detail-access.ts';
import { mayChangeNote } from '../../components/use-project-caller.ts';
import { ChangeableNote } from '../../components/changeable-note.tsx';
import { useCommentDraft } from '../../components/comment-draft.ts';
import { NoteEditor, ProjectMarkdown } from '../../components/note-editor.tsx';
import { useAddNote, useRefreshNotes, type IssueRef } from './issue-detail-mutations.ts';
import { Reactions } from '../../components/reactions.tsx';
import { mergeTimeline, type TimelineItem } from './timeline.ts';
import { formatCount } from '../../lib/numbers.ts';

/** Entries rendered at a time: a 500-note thread paints its first entries at once, the rest on request. */
export const TIMELINE_STEP = 100;

const NO_EVENTS: IssueEvents = { label: [], state: [], milestone: [] };

function When({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatRelative(value)}
    </time>
  );
}

function Who({ user }: { user: { name: string; username: string } | null | undefined }) {
  return user ? <strong>{user.name}</strong> : <strong>Someone</strong>;
}

function NoteEntry({ note, issueRef, caller }: { note: Note; issueRef: IssueRef; caller: IssueCaller }) {
  const refreshNotes = useRefreshNotes(issueRef);
  const label = `${note.system ? 'Change' : 'Comment'} by ${note.author?.name ?? 'someone'}`;
  if (note.system) {
    return (
      <li className="timeline__entry timeline__entry--system">
        <Who user={note.author} /> <ProjectMarkdown projectId={issueRef.projectId} source={note.body} /> <When value={note.created_at} />
      </li>
    );
  }
  const noteable = { projectId: issueRef.projectId, issueIid: issueRef.iid };
  return (
    <li className="timeline__entry">
      <article aria-label={label} className="note">
        <ChangeableNote
          noteable={noteable}
          note={note}
          authorName={note.author?.name ?? 'someone'}
          mayChange={mayChangeNote(caller, note.author?.id)}
          refresh={refreshNotes}
          header={
            <>
              <Who user={note.author} /> {note.author ? <span className="muted">@{note.author.username}</span> : null} · <When value={note.created_at} />
              {note.internal ? <span className="badge badge--warning">Internal</span> : null}
              {note.updated_at && note.updated_at !== note.created_at ? <span className="muted"> (edited)</span> : null}
            </>
          }
        />
        <Reactions noteable={noteable} noteId={note.id} userId={caller.userId} canReact={caller.canWrite} label={`Reactions to the comment by ${note.author?.name ?? 'someone'}`} />
      </article>
    </li>
  );
}

function EventEntry({ item }: { item: Exclude<TimelineItem, { kind: 'note' }> }) {
  if (item.kind === 'labels') {
    const names = (events: typeof item.added) => events.map((event) => event.label?.name ?? 'a deleted label').join(', ');
    return (
      <li className="timeline__entry timeline__entry--system">
        <Who user={item.user} /> {item.added.length ? `added ${item.added.length === 1 ? 'label' : 'labels'} ${names(item.added)}` : ''}
        {item.added.length && item.removed.length ? ' and ' : ''}
        {item.removed.length ? `removed ${item.removed.length === 1 ? 'label' : 'labels'} ${names(item.removed)}` : ''} <When value={item.at} />
      </li>
    );
  }
  if (item.kind === 'state') {
    return (
      <li className="timeline__entry timeline__entry--system">
        <Who user={item.event.user} /> {item.event.state === 'closed' ? 'closed' : item.event.state === 'reopened' ? 'reopened' : `marked as ${item.event.state}`} this issue <When value={item.at} />
      </li>
    );
  }
  const title = item.event.milestone?.title ?? 'a deleted milestone';
  return (
    <li className="timeline__entry timeline__entry--system">
      <Who user={item.event.user} /> {item.event.action === 'remove' ? `removed milestone ${title}` : `set milestone ${title}`} <When value={item.at} />
    </li>
  );
}

function CommentForm({ issueRef, caller, locked, onPosted }: { issueRef: IssueRef; caller: IssueCaller; locked: boolean; onPosted: () => void }) {
  const { text: body, change, clear } = useCommentDraft(issueRef.projectId, `issues/${issueRef.iid}`);
  const [internal, setInternal] = useState(false);
  const add = useAddNote(issueRef);
  const refusal = commentRefusal(caller, locked);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    add.mutate(
      { body, internal },
      {
        onSuccess: () => {
          clear();
          setInternal(false);
          add.reset();
          onPosted();
        },
      },
    );
  };
  if (refusal) {
    return (
      <p className="notice" role="note">
        {refusal}
      </p>
    );
  }
  return (
    <form aria-label="Add a comment" onSubmit={submit} className="comment-form">
      <NoteEditor projectId={issueRef.projectId} label="Comment" value={body} onChange={change} />
      {mayWriteInternal(caller) ? (
        <label className="checkbox">
          <input type="checkbox" checked={internal} onChange={(event) => setInternal(event.target.checked)} />
          Internal note (seen only by project members from Reporter up)
        </label>
      ) : null}
      <WriteOutcome write={add} hint="Your comment is kept: send it again when you are ready." />
      <button type="submit" className="button button--primary" disabled={add.isPending || !body.trim()}>
        {add.isPending ? 'Commenting…' : 'Comment'}
      </button>
    </form>
  );
}

/** Comments, system notes and label, state and milestone events, oldest first, and the comment form. */
export function IssueTimeline({ issueRef, caller, locked }: { issueRef: IssueRef; caller: IssueCaller; locked: boolean }) {
  const connection = useConnection();
  const thread = useInfiniteQuery(notesQueries.thread(connection, { projectId: issueRef.projectId, issueIid: issueRef.iid }));
  const events = useQuery(issueEventsQueries.of(connection, issueRef.projectId, issueRef.iid));
  const [shown, setShown] = useState(TIMELINE_STEP);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError: threadFailed } = thread;
  // every page of notes, one after the other, while the first is already on screen
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !threadFailed) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, threadFailed, fetchNextPage]);
  const notes = useMemo(() => thread.data?.pages.flatMap((page) => page.items) ?? [], [thread.data]);
  const items = useMemo(() => mergeTimeline(notes, events.data ?? NO_EVENTS, hasNextPage ? notes.at(-1)?.created_at : undefined), [notes, events.data, hasNextPage]);
  const total = thread.data?.pages[0]?.total;
  return (
    <section aria-label="Activity" className="timeline">
      <h2>Activity</h2>
      {thread.isPending ? <p role="status">Loading comments…</p> : null}
      {thread.isError ? <ErrorPanel error={thread.error} onRetry={() => void (thread.data ? fetchNextPage() : thread.refetch())} /> : null}
      {events.isError ? <ErrorPanel error={events.error} onRetry={() => void events.refetch()} /> : null}
      {events.isPending ? <p role="status">Loading label, state and milestone changes…</p> : null}
      {thread.data && !items.length ? <p className="muted">No activity yet.</p> : null}
      <ol className="timeline__list" aria-label="Activity entries">
        {items.slice(0, shown).map((item) => (item.kind === 'note' ? <NoteEntry key={item.key} note={item.note} issueRef={issueRef} caller={caller} /> : <EventEntry key={item.key} item={item} />))}
      </ol>
      {hasNextPage ? (
        <p role="status">
          Loading more comments ({formatCount(notes.length)}
          {total ? ` of ${formatCount(total)}` : ''} so far)…
        </p>
      ) : null}
      {items.length > shown ? (
        <p>
          Showing {formatCount(shown)} of {formatCount(items.length)} entries.{' '}
          <button type="button" className="button" onClick={() => setShown((count) => count + TIMELINE_STEP)}>
            Show {Math.min(TIMELINE_STEP, items.length - shown)} more
          </button>
        </p>
      ) : null}
      {/* a new comment is the last entry: the list shows every entry, so it is seen where it was posted */}
      <CommentForm issueRef={issueRef} caller={caller} locked={locked} onPosted={() => setShown(Number.MAX_SAFE_INTEGER)} />
    </section>
  );
}
