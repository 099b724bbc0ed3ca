import type { ReactNode } from 'react';
import { RouteLink } from './route-link.tsx';
import { Avatar } from './avatar.tsx';
import { BreakableText } from './breakable-text.tsx';

interface PersonCellProps {
  person: { id: number; name: string; username: string; avatar_url: string | null };
  /** Badges after the username: "You", a state, a role note. */
  children?: ReactNode;
}

/** A person in a table: picture, name linking to their page, and @username. */
export function PersonCell({ person, children }: PersonCellProps) {
  return (
    <div className="member-cell">
      <Avatar url={person.avatar_url} name={person.name} />
      <div>
        <RouteLink to="/users/$userId" params={{ userId: person.id }} className="member-cell__name">
          {person.name}
        </RouteLink>
        <div className="muted">
          @<BreakableText text={person.username} />
          {children}
        </div>
      </div>
    </div>
  );
}
