import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { notesQueries, type AwardEmoji } from '../../api/notes.ts';
import { useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { useReact, type IssueRef } from './issue-detail-mutations.ts';

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

/** The reactions on the issue (no `noteId`) or on one note, with a picker to add one. */
export function Reactions({ issue, noteId, userId, canReact, label }: { issue: IssueRef; noteId?: number; userId: number; canReact: boolean; label: string }) {
  const connection = useConnection();
  const box = useRef<HTMLDivElement>(null);
  const seen = useSeen(box);
  const awards = useQuery({ ...notesQueries.awards(connection, { projectId: issue.projectId, issueIid: issue.iid }, noteId), enabled: seen });
  const react = useReact(issue);
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
          aria-label={`${group.name}: ${group.count} ${group.count === 1 ? 'reaction' : 'reactions'}${group.mine ? ', yours among them' : ''}`}
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
