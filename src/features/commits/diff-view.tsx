import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { commitsQueries, type CommitDiff } from '../../api/commits.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { StatsText } from './commit-parts.tsx';
import { diffCounts } from './commit-text.ts';
import { formatCount } from '../../lib/numbers.ts';

/** Past this many lines a file's changes start collapsed, and are drawn only once opened. */
export const COLLAPSE_LINES = 400;

const lineStyle = (line: string) =>
  line.startsWith('@@')
    ? { color: 'var(--fg-muted, #57606a)' }
    : line.startsWith('+')
      ? { background: 'rgba(46, 160, 67, 0.15)' }
      : line.startsWith('-')
        ? { background: 'rgba(248, 81, 73, 0.15)' }
        : undefined;

/** The patch as text, one block per line so additions and deletions can be tinted. */
function PatchText({ diff, label }: { diff: string; label: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre aria-label={label} style={{ overflowX: 'auto', margin: 0, padding: 'var(--space-2, 8px)', fontSize: '0.85em' }}>
      <code>
        {lines.map((line, index) => (
          <span key={index} style={{ display: 'block', ...lineStyle(line) }}>
            {line || ' '}
          </span>
        ))}
      </code>
    </pre>
  );
}

function fileName(file: CommitDiff): string {
  return file.renamed_file && file.old_path !== file.new_path ? `${file.old_path} → ${file.new_path}` : file.new_path;
}

function FileDiff({ file }: { file: CommitDiff }) {
  const counts = diffCounts(file.diff);
  const binary = file.diff.startsWith('Binary files ');
  const big = counts.lines > COLLAPSE_LINES || file.generated_file;
  const [open, setOpen] = useState(!big);
  const name = fileName(file);
  const modeChange = file.a_mode && file.b_mode && file.a_mode !== file.b_mode && !file.new_file && !file.deleted_file ? `mode ${file.a_mode} → ${file.b_mode}` : null;
  return (
    <li>
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <strong>{name}</strong> {file.new_file ? <span className="badge">Added</span> : null}
          {file.deleted_file ? <span className="badge">Deleted</span> : null}
          {file.renamed_file ? <span className="badge">Renamed</span> : null}
          {modeChange ? <span className="badge">{modeChange}</span> : null}{' '}
          {!binary && !file.too_large ? <StatsText stats={{ additions: counts.additions, deletions: counts.deletions, total: counts.additions + counts.deletions }} /> : null}
          {big && !open ? <span className="muted"> ({formatCount(counts.lines)} lines, collapsed)</span> : null}
        </summary>
        {!open ? null : file.too_large ? (
          <p className="notice">The changes to this file are too large to show here.</p>
        ) : binary ? (
          <p className="muted">Binary file: its contents are not shown as text.</p>
        ) : file.diff ? (
          <PatchText diff={file.diff} label={`Changes to ${name}`} />
        ) : (
          <p className="muted">No line changes{file.renamed_file ? ' (renamed only)' : modeChange ? ' (mode only)' : ''}.</p>
        )}
      </details>
    </li>
  );
}

function DiffPage({ projectId, sha, page, last, onMore }: { projectId: number; sha: string; page: number; last: boolean; onMore: () => void }) {
  const connection = useConnection();
  const diff = useQuery(commitsQueries.diff(connection, projectId, sha, page));
  if (diff.isPending) {
    return (
      <p className="state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the changes…
      </p>
    );
  }
  if (diff.isError) return <ErrorPanel error={diff.error} onRetry={() => void diff.refetch()} />;
  const files = diff.data.items;
  if (page === 1 && files.length === 0) return <p className="muted">This commit changes no files.</p>;
  return (
    <>
      <ol className="link-list" aria-label={page === 1 ? 'Changed files' : `Changed files, part ${page}`}>
        {files.map((file) => (
          <FileDiff key={`${file.old_path}\0${file.new_path}`} file={file} />
        ))}
      </ol>
      {last && diff.data.nextPage ? (
        <button type="button" className="button" onClick={onMore}>
          Show more files
        </button>
      ) : null}
    </>
  );
}

/** The commit's changes, file by file, a hundred files at a time. */
export function DiffView({ projectId, sha }: { projectId: number; sha: string }) {
  const [pages, setPages] = useState(1);
  return (
    <>
      {Array.from({ length: pages }, (_, index) => (
        <DiffPage key={index} projectId={projectId} sha={sha} page={index + 1} last={index + 1 === pages} onMore={() => setPages(pages + 1)} />
      ))}
    </>
  );
}
