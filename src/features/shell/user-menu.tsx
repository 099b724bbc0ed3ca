import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useActiveSession, useSavedConnections, useSessionStore } from '../../api/react.ts';
import { AccountTrigger } from './deferred-menus.tsx';

/** The account menu: profile, other saved connections, add one, sign out. */
export function UserMenu({ defaultOpen }: { defaultOpen: boolean }) {
  const active = useActiveSession();
  const saved = useSavedConnections();
  const session = useSessionStore();
  const navigate = useNavigate();
  if (!active) return null;
  const { connection } = active;
  const others = saved.filter((item) => item.id !== connection.id && session.hasToken(item.id));
  return (
    // not modal and not portalled: the page stays in the accessibility tree and the menu stays in the banner landmark
    <DropdownMenu.Root defaultOpen={defaultOpen} modal={false}>
      <DropdownMenu.Trigger asChild>
        <AccountTrigger connection={connection} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
        <DropdownMenu.Label className="menu__label">
          {connection.name} on {connection.instanceUrl}
          {connection.version ? ` (version ${connection.version})` : ''}
        </DropdownMenu.Label>
        <DropdownMenu.Item className="menu__item" onSelect={() => void navigate({ to: '/users/$userId', params: { userId: String(connection.userId) } })}>
          Your profile
        </DropdownMenu.Item>
        {others.length ? <DropdownMenu.Separator className="menu__separator" /> : null}
        {others.map((other) => (
          <DropdownMenu.Item
            key={other.id}
            className="menu__item"
            // leave the screen first, as signing out does: its queries would fetch again with the other connection
            onSelect={() =>
              void navigate({ to: '/connect' }).then(() => {
                if (session.switchTo(other.id)) void navigate({ to: '/' });
              })
            }
          >
            Switch to {other.username} on {other.instanceUrl}
          </DropdownMenu.Item>
        ))}
        <DropdownMenu.Item className="menu__item" onSelect={() => void navigate({ to: '/connect' })}>
          Add a connection
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="menu__separator" />
        <DropdownMenu.Item
          className="menu__item"
          // leave the screen first: its queries, dropped with the connection, would fetch again without a token and get 401
          onSelect={() => void navigate({ to: '/connect' }).then(() => session.signOut())}
        >
          Sign out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
