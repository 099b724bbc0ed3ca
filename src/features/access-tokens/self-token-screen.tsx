import { useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { accessTokensQueries, type NewAccessToken } from '../../api/access-tokens.ts';
import { roleName } from '../../api/members.ts';
import { useActiveSession, useConnection, useSessionStore } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { SecretOnce } from '../../components/secret-once.tsx';
import { Time } from '../../components/time.tsx';
import { TokenExpiry, TokenStateBadge } from '../../components/token-status.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

const loadDialogs = chunk(() => import('./token-dialogs.tsx'));
const RotateTokenDialog = lazyPart(loadDialogs, (module) => module.RotateTokenDialog);

/** A self-rotation needs `api` or `self_rotate` on the token itself (spec 1, 4.2). */
const SELF_ROTATE_SCOPES = ['api', 'self_rotate'];

function GroupTokenDetails({ groupId, groupName }: { groupId: number; groupName: string }) {
  const connection = useConnection();
  const session = useSessionStore();
  const active = useActiveSession();
  const token = useQuery(accessTokensQueries.self(connection, groupId));
  const [rotating, setRotating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const canRotate = Boolean(token.data?.scopes.some((scope) => SELF_ROTATE_SCOPES.includes(scope)));
  usePreloadWhenIdle(loadDialogs, canRotate);
  if (token.isPending) return <RoutePending />;
  if (token.error) return <ErrorPanel error={token.error} onRetry={() => void token.refetch()} />;
  return (
    <>
      <dl className="details">
        <dt>Name</dt>
        <dd>{token.data.name}</dd>
        <dt>Group</dt>
        <dd>{groupName}</dd>
        <dt>State</dt>
        <dd>
          <TokenStateBadge token={token.data} />
        </dd>
        <dt>Role</dt>
        <dd>{roleName(token.data.access_level ?? 0)}</dd>
        <dt>Scopes</dt>
        <dd>{token.data.scopes.join(', ')}</dd>
        <dt>Expires</dt>
        <dd>
          <TokenExpiry token={token.data} />
        </dd>
        <dt>Last used</dt>
        <dd><Time value={token.data.last_used_at} relative fallback="never" /></dd>
        <dt>Created</dt>
        <dd><Time value={token.data.created_at} /></dd>
      </dl>
      <button
        type="button"
        className="button button--primary"
        disabled={!canRotate}
        title={canRotate ? undefined : 'This token has neither the api nor the self_rotate scope, so it cannot rotate itself'}
        onClick={() => setRotating(true)}
      >
        Rotate this token
      </button>
      {!canRotate ? <p className="muted">It cannot rotate itself: that needs the api or self_rotate scope. An Owner of {groupName} can rotate it.</p> : null}
      {rotating ? (
        <RotateTokenDialog
          self
          token={token.data}
          groupId={groupId}
          onClose={() => setRotating(false)}
          onRotated={(rotated: NewAccessToken) => {
            // the old secret is revoked: the console carries on with the new one
            if (active) session.replaceToken(rotated.token);
            setSecret(rotated.token);
            void token.refetch();
          }}
        />
      ) : null}
      <SecretOnce secret={secret} title="This token, rotated" onDone={() => setSecret(null)} />
    </>
  );
}

function OwnGroupTokenDetails({ botUserId }: { botUserId: number }) {
  const group = useSuspenseQuery(accessTokensQueries.ownGroup(useConnection(), botUserId)).data;
  if (!group) return <EmptyState title="This token belongs to no group the console can see." />;
  return <GroupTokenDetails groupId={group.id} groupName={group.full_name} />;
}

/** The token the console is connected with, when it is a group access token. */
export function SelfTokenScreen() {
  const active = useActiveSession();
  return (
    <section className="screen" aria-labelledby="self-token-heading">
      <h1 id="self-token-heading">This token</h1>
      {!active?.connection.isBot ? (
        <EmptyState title="The console is connected with a personal access token.">
          <p>This view is for group access tokens: connect with one to see it and let it rotate itself.</p>
        </EmptyState>
      ) : (
        <OwnGroupTokenDetails botUserId={active.connection.userId} />
      )}
    </section>
  );
}
