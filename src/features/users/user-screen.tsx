import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';

import { setFollowing, usersQueries, type UserSummary } from '../../api/users.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { Avatar } from '../../components/avatar.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { PersonCell } from '../../components/person-cell.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { SearchLink } from '../../components/search-link.tsx';
import { EmptyState } from '../../components/states.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { useWrite } from '../../components/use-write.ts';
import { Time } from '../../components/time.tsx';
import type { UserSearch } from './search.ts';

function useFollow(userId: number) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (follow: boolean) => setFollowing(connection, { userId, follow }),
    toggleOf: () => 'following',
    // the profile's counts and both lists change, ours and theirs
    refresh: () => queryClient.invalidateQueries({ queryKey: usersQueries.all() }),
  });
}

// a follow list may hold blocked or deactivated people: their state shows
const columns: ColumnDef<UserSummary>[] = [
  { id: 'person', header: 'User', cell: ({ row }) => <PersonCell person={row.original} /> },
  { id: 'state', header: 'State', cell: ({ row }) => row.original.state },
];

/** A person: who they are, follow or unfollow, and who follows them and whom they follow. */
export function UserScreen({ userId, search }: { userId: number; search: UserSearch }) {
  const connection = useConnection();
  const session = useActiveSession();
  const notify = useNotify();
  const profile = useSuspenseQuery(usersQueries.detail(connection, userId)).data;
  const list = useSuspenseQuery(usersQueries.follows(connection, userId, search.tab, { page: search.page, per_page: search.per_page })).data;
  const follow = useFollow(userId);
  const me = session?.connection;
  const itsMe = me?.userId === userId;
  const listName = search.tab === 'followers' ? `Followers of ${profile.name}` : `Followed by ${profile.name}`;
  return (
    <section className="screen" aria-labelledby="user-heading">
      <header className="profile">
        <Avatar url={profile.avatar_url} name={profile.name} size={72} />
        <div className="profile__text">
          <h1 id="user-heading">{profile.name}</h1>
          <p className="muted">
            @{profile.username}
            {profile.bot ? <span className="badge">Bot</span> : null}
            {profile.state !== 'active' ? <span className="badge badge--warning">{profile.state}</span> : null}
          </p>
          {profile.bio ? <p>{profile.bio}</p> : null}
          <p className="muted">
            {[profile.job_title, profile.organization, profile.location].filter(Boolean).join(' · ')}
            {profile.created_at ? <> · Member since <Time value={profile.created_at} dateOnly /></> : ''}
          </p>
        </div>
        {!itsMe ? (
          <div className="profile__actions">
            <button
              // the label names the action (Follow / Unfollow), so no aria-pressed: a toggle's name must not change with its state (WAI-ARIA APG)
              type="button"
              className={profile.is_followed ? 'button' : 'button button--primary'}
              disabled={follow.isPending || !me?.canWrite}
              title={!me?.canWrite ? 'A read-only token cannot follow people' : undefined}
              onClick={() =>
                follow.mutate(!profile.is_followed, {
                  onSuccess: () => notify(profile.is_followed ? `You no longer follow ${profile.name}.` : `You now follow ${profile.name}.`),
                })
              }
            >
              {profile.is_followed ? 'Unfollow' : 'Follow'}
            </button>
            {follow.error ? <p role="alert" className="form-error">{errorText(follow.error)}</p> : null}
            <UncertainWrite write={follow} />
          </div>
        ) : null}
      </header>
      <nav aria-label="Follow lists" className="tabs">
        <SearchLink search={(previous) => ({ ...previous, tab: 'followers', page: 1 })} current={search.tab === 'followers'} className="tabs__tab">
          Followers ({profile.followers ?? 0})
        </SearchLink>
        <SearchLink search={(previous) => ({ ...previous, tab: 'following', page: 1 })} current={search.tab === 'following'} className="tabs__tab">
          Following ({profile.following ?? 0})
        </SearchLink>
      </nav>
      {list.items.length === 0 ? (
        <EmptyState title={search.tab === 'followers' ? `Nobody follows ${profile.name} yet.` : `${profile.name} follows nobody yet.`} />
      ) : (
        <DataTable caption={listName} columns={columns} data={list.items} getRowId={(user) => String(user.id)} />
      )}
      <Paginator page={list} label={`${listName} pages`} />
    </section>
  );
}
