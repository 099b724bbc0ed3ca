import { useId, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { commitsQueries, type CommitRef, type PickKind } from '../../api/commits.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useActiveSession, useConnection, useInstancePage } from '../../api/react.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { formatDateTime, formatRelative } from '../../lib/time.ts';
import { StatsText, TrailerList } from './commit-parts.tsx';
import { messageBody } from './commit-text.ts';
import { DiffView } from './diff-view.tsx';
import { pickAccess, roleIn } from './permissions.ts';
import { formatCount } from '../../lib/numbers.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';
import { useMyAccess } from '../../components/use-my-access.ts';

// the dialog loads when someone may use it, not before the commit's first paint
const loadPickDialog = chunk(() => import('./pick-dialog.tsx'));
const PickDialog = lazyPart(loadPickDialog, (module) => module.PickDialog);

function When({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">unknown</span>;
  return (
    <time dateTime={value}>
      {formatDateTime(value)} ({formatRelative(value)})
    </time>
  );
}

function Person({ name, email }: { name: string | null | undefined; email: string | null | undefined }) {
  return (
    <>
      {name || 'Unknown'}
      {email ? <span className="muted"> &lt;{email}&gt;</span> : null}
    </>
  );
}

function RefLinks({ projectId, refs, kind }: { projectId: number; refs: CommitRef[]; kind: 'branch' | 'tag' }) {
  const named = refs.filter((ref) => ref.type === kind);
  const title = kind === 'branch' ? 'Branches' : 'Tags';
  return (
    <>
      <dt>{title}</dt>
      <dd>
        {named.length ? (
          <ul className="link-list" aria-label={title}>
            {named.map((ref) => (
              <li key={ref.name}>
                <Link to="/projects/$projectId/commits" params={{ projectId: String(projectId) }} search={{ ref_name: ref.name }}>
                  {ref.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">None</span>
        )}
      </dd>
    </>
  );
}

/** Where the commit is: branches and tags whose history contains it, a hundred at a time. */
function ContainingRefs({ projectId, sha }: { projectId: number; sha: string }) {
  const connection = useConnection();
  const [page, setPage] = useState(1);
  const refs = useQuery(commitsQueries.refs(connection, projectId, sha, page));
  if (refs.isPending) return <p role="status">Finding the branches and tags that contain this commit…</p>;
  if (refs.isError) return <ErrorPanel error={refs.error} onRetry={() => void refs.refetch()} />;
  const { items, nextPage, prevPage } = refs.data;
  return (
    <>
      <dl className="details">
        <RefLinks projectId={projectId} refs={items} kind="branch" />
        <RefLinks projectId={projectId} refs={items} kind="tag" />
      </dl>
      {nextPage || prevPage ? (
        <nav aria-label="More branches and tags" className="paginator__pages">
          <button type="button" className="button" disabled={!prevPage} onClick={() => prevPage && setPage(prevPage)}>
            Previous
          </button>
          <button type="button" className="button" disabled={!nextPage} onClick={() => nextPage && setPage(nextPage)}>
            Next
          </button>
        </nav>
      ) : null}
    </>
  );
}

function SequenceNumber({ projectId, sha }: { projectId: number; sha: string }) {
  const connection = useConnection();
  const sequence = useQuery(commitsQueries.sequence(connection, projectId, sha));
  if (sequence.isPending) return <span className="muted">counting…</span>;
  if (sequence.isError) return <span className="muted">not available ({errorText(sequence.error)})</span>;
  return <>{formatCount(sequence.data)} commits lead here, this one included</>;
}

export function CommitScreen({ projectId, sha }: { projectId: number; sha: string }) {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const commit = useSuspenseQuery(commitsQueries.detail(connection, projectId, sha)).data;
  const [picking, setPicking] = useState<PickKind | null>(null);
  const headingId = useId();

  // the project's `permissions` name direct rows only on some instances: the effective role comes from members/all
  const roleNeeded = Boolean(me?.canWrite) && !me?.isAdmin;
  const project = useQuery({ ...projectsQueries.detail(connection, projectId), enabled: roleNeeded });
  const membership = useMyAccess(roleNeeded ? { project: projectId } : null);
  const roleError = project.error ?? membership.error;
  const access = !roleNeeded
    ? pickAccess({ isAdmin: Boolean(me?.isAdmin), canWrite: Boolean(me?.canWrite), role: 0 })
    : project.data && membership.data !== undefined
      ? pickAccess({ isAdmin: false, canWrite: true, role: Math.max(roleIn(project.data.permissions), membership.data) })
      : null;
  usePreloadWhenIdle(loadPickDialog, Boolean(access?.allowed));

  const body = messageBody(commit);
  const trailers = commit.extended_trailers;
  const webUrl = useInstancePage(commit.web_url);
  const sameCommitter = commit.committer_name === commit.author_name && commit.committer_email === commit.author_email && commit.committed_date === commit.authored_date;
  return (
    <article className="screen" aria-labelledby={headingId}>
      <header className="screen__header">
        <h1 id={headingId}>{commit.title || commit.short_id}</h1>
        {access?.allowed ? (
          <span className="row-actions">
            <button type="button" className="button" onClick={() => setPicking('cherry_pick')}>
              Cherry-pick
            </button>
            <button type="button" className="button" onClick={() => setPicking('revert')}>
              Revert
            </button>
          </span>
        ) : null}
      </header>
      {access && !access.allowed ? (
        <p className="notice" role="note">
          {access.reason}
        </p>
      ) : roleError ? (
        <p className="notice" role="note">
          Your role in this project could not be read ({errorText(roleError)}), so cherry-pick and revert are not offered.{' '}
          <button type="button" className="button" onClick={() => void Promise.all([project.refetch(), membership.refetch()])}>
            Try again
          </button>
        </p>
      ) : null}
      <p>
        <Link to="/projects/$projectId/commits" params={{ projectId: String(projectId) }}>
          All commits
        </Link>
        {webUrl ? (
          <>
            {' · '}
            <a href={webUrl} rel="noreferrer noopener" target="_blank">
              Open on the instance
            </a>
          </>
        ) : null}
      </p>
      {body ? (
        <section aria-label="Message">
          <h2>Message</h2>
          <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{body}</pre>
        </section>
      ) : null}
      <section aria-label="About this commit">
        <h2>About this commit</h2>
        <dl className="details">
          <dt>Commit</dt>
          <dd>
            <code>{commit.id}</code>
          </dd>
          <dt>Author</dt>
          <dd>
            <Person name={commit.author_name} email={commit.author_email} />, <When value={commit.authored_date} />
          </dd>
          <dt>Committer</dt>
          <dd>
            {sameCommitter ? (
              'The author, at the same time'
            ) : (
              <>
                <Person name={commit.committer_name} email={commit.committer_email} />, <When value={commit.committed_date} />
              </>
            )}
          </dd>
          <dt>Changes</dt>
          <dd>
            {commit.stats ? (
              <>
                <StatsText stats={commit.stats} /> ({formatCount(commit.stats.total)} lines changed)
              </>
            ) : (
              <span className="muted">Not counted</span>
            )}
          </dd>
          <dt>Parents</dt>
          <dd>
            {commit.parent_ids.length ? (
              <ul className="link-list" aria-label="Parents">
                {commit.parent_ids.map((parent) => (
                  <li key={parent}>
                    <Link to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: parent }} aria-label={`Parent ${parent.slice(0, 11)}`}>
                      <code>{parent.slice(0, 11)}</code>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              'None: this is a first commit'
            )}
          </dd>
          <dt>Position</dt>
          <dd>
            <SequenceNumber projectId={projectId} sha={commit.id} />
          </dd>
          {commit.last_pipeline ? (
            <>
              <dt>Last pipeline</dt>
              <dd>
                #{commit.last_pipeline.id} {commit.last_pipeline.status ?? ''}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      <section aria-label="Trailers">
        <h2>Trailers</h2>
        {Object.keys(trailers).length ? <TrailerList trailers={trailers} /> : <p className="muted">None.</p>}
      </section>
      <section aria-label="Branches and tags containing this commit">
        <h2>Branches and tags containing this commit</h2>
        <ContainingRefs key={commit.id} projectId={projectId} sha={commit.id} />
      </section>
      <section aria-label="Changes">
        <h2>Changes</h2>
        <DiffView key={commit.id} projectId={projectId} sha={commit.id} />
      </section>
      {access?.allowed && picking ? (
        <PickDialog open onOpenChange={(open) => !open && setPicking(null)} kind={picking} projectId={projectId} commit={commit} />
      ) : null}
    </article>
  );
}
