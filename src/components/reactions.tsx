import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { awardEmoji, notesQueries, removeAwardEmoji, type AwardEmoji, type Noteable } from '../api/notes.ts';
import { useConnection } from '../api/react.ts';
import { errorText } from './error-panel.tsx';
import { REPEAT_AFTER_MS, useWrite } from './use-write.ts';
import './comments.css';
import { formatCountOf } from '../lib/numbers.ts';

/** The picker's emoji: the platform's names, the ones people use most. */
export const COMMON_EMOJI: ReadonlyArray<{ name: string; glyph: string }> = [
  { name: 'thumbsup', glyph: '👍' },
  { name: 'thumbsdown', glyph: '👎' },
  { name: 'smile', glyph: '😄' },
  { name: 'tada', glyph: '🎉' },
  { name: 'heart', glyph: '❤️' },
  { name: 'rocket', glyph: '🚀' },
  { name: 'eyes', glyph: '👀' },
  { name: 'confused', glyph: '😕' },
];

const GLYPHS = new Map(COMMON_EMOJI.map((emoji) => [emoji.name, emoji.glyph]));

export function emojiGlyph(name: string): string {
  return GLYPHS.get(name) ?? `:${name}:`;
}

export interface ReactionGroup {
  name: string;
  count: number;
  /** The caller's own award of this emoji, to take back. */
  mine: AwardEmoji | undefined;
}

/** Awards grouped by emoji, in the order each emoji first came. */
export function groupReactions(awards: readonly AwardEmoji[], userId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const award of awards) {
    const group = groups.get(award.name) ?? { name: award.name, count: 0, mine: undefined };
    group.count++;
    if (award.user?.id === userId) group.mine = award;
    groups.set(award.name, group);
  }
  return [...groups.values()];
}

/** True once the element has come near the viewport: a long thread fetches reactions as it is read. */
export function useSeen(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    if (typeof IntersectionObserver === 'undefined') return void setSeen(true);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    }, { rootMargin: '400px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}

/** Adds a reaction, or takes back one's own (`awardId`), on the issue or merge request or on one of its notes. */
export type ReactVariables = { noteId?: number; name: string; awardId?: number };

/**
 * A reaction goes back and forth with the same input, so it may repeat once a double click is over.
 * `refreshAlso` refetches what else counts reactions (the upvotes).
 */
export function useReact(noteable: Noteable, refreshAlso?: () => Promise<unknown>) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: async ({ noteId, name, awardId }: ReactVariables): Promise<AwardEmoji | null> => {
      if (awardId === undefined) return awardEmoji(connection, { noteable, noteId, name });
      await removeAwardEmoji(connection, { noteable, noteId, awardId });
      return null;
    },
    // the answer is shown at once, whatever a refetch still in flight from before the write says
    onDone: (award, { noteId, awardId }) =>
      queryClient.setQueryData(notesQueries.awards(connection, noteable, noteId).queryKey, (page) => {
        const items = (page?.items ?? []).filter((item) => item.id !== awardId && item.id !== award?.id);
        return { page: 1, perPage: 100, links: {}, ...page, items: award ? [...items, award] : items };
      }),
    refresh: () => Promise.all([queryClient.invalidateQueries({ queryKey: [...notesQueries.of(noteable), 'awards'] }), refreshAlso?.()]),
    repeatAfterMs: REPEAT_AFTER_MS,
    toggleOf: ({ noteId, name }) => `${noteId ?? 'the item'} ${name}`,
  });
}

/** The reactions on the issue or merge request (no `noteId`) or on one note, with a picker to add one. */
export function Reactions({ noteable, noteId, userId, canReact, label, refreshAlso }: { noteable: Noteable; noteId?: number; userId: number; canReact: boolean; label: string; refreshAlso?: () => Promise<unknown> }) {
  const connection = useConnection();
  const box = useRef<HTMLDivElement>(null);
  const seen = useSeen(box);
  const awards = useQuery({ ...notesQueries.awards(connection, noteable, noteId), enabled: seen });
  const react = useReact(noteable, refreshAlso);
  const [picking, setPicking] = useState(false);
  const groups = groupReactions(awards.data?.items ?? [], userId);
  const toggle = (name: string) => {
    const mine = groups.find((group) => group.name === name)?.mine;
    react.mutate({ noteId, name, awardId: mine?.id }, { onSuccess: () => setPicking(false) });
  };
  return (
    <div ref={box} className="reactions" role="group" aria-label={label}>
      {awards.isError ? <span className="muted">Reactions could not be read ({errorText(awards.error)}).</span> : null}
      {groups.map((group) => (
        <button
          key={group.name}
          type="button"
          className="button reaction"
          aria-pressed={Boolean(group.mine)}
          disabled={!canReact || react.isPending}
          aria-label={`${group.name}: ${formatCountOf(group.count, 'reaction', 'reactions')}${group.mine ? ', yours among them' : ''}`}
          onClick={() => toggle(group.name)}
        >
          <span aria-hidden="true">{emojiGlyph(group.name)}</span> {group.count}
        </button>
      ))}
      {canReact ? (
        <button type="button" className="button" aria-expanded={picking} onClick={() => setPicking((open) => !open)}>
          Add reaction
        </button>
      ) : null}
      {picking ? (
        <div role="group" aria-label="Pick a reaction" className="reactions__picker">
          {COMMON_EMOJI.map((emoji) => (
            <button key={emoji.name} type="button" className="button" title={emoji.name} aria-label={`React with ${emoji.name}`} disabled={react.isPending} onClick={() => toggle(emoji.name)}>
              <span aria-hidden="true">{emoji.glyph}</span>
            </button>
          ))}
        </div>
      ) : null}
      {react.isError && !react.isUncertain ? (
        <span role="alert" className="field__error">
          {errorText(react.error)}
        </span>
      ) : null}
    </div>
  );
}
