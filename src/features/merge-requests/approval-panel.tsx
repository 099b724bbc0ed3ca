import { useId, useState, type FormEvent } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { approvalsQueries, type Approvals, type ApprovalState } from '../../api/approvals.ts';
import { ApiError } from '../../api/errors.ts';
import { mergeRequestsQueries, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { errorText, ErrorPanel } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { RoutePending } from '../../components/states.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { isNewCommits, loadedHead, useApproval, useReloadRequest, useResetApprovals } from './approval-panel-writes.ts';
import { explainApprovalRight } from './merge-status.ts';
import { MergePanel } from './merge-panel.tsx';
import './merge-request-review.css';
import { formatCountOf } from '../../lib/numbers.ts';

/** The approval and merge panels of the Overview tab. */
export function MergeRequestReviewPanels({ projectId, iid }: { projectId: number; iid: number }) {
  return (
    <div className="review-panels">
      <ApprovalPanel projectId={projectId} iid={iid} />
      <MergePanel projectId={projectId} iid={iid} />
    </div>
  );
}

/** "a", "a and b", "a, b and c". */
const listWords = (words: string[]) => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/** "you, Maya Chen and Diego Ramirez": the caller first, as "you". */
function approverNames(approvals: Approvals, userId: number | undefined): string {
  const people = approvals.approved_by.map(({ user }) => user);
  const you = people.filter((user) => user.id === userId).map(() => 'you');
  return listWords([...you, ...people.filter((user) => user.id !== userId).map((user) => user.name)]);
}

/** The approval rules, who approved each, what is missing, and whether the caller can approve, and why. */
export function ApprovalPanel({ projectId, iid }: { projectId: number; iid: number }) {
  const connection = useConnection();
  const headingId = useId();
  const approvals = useQuery(approvalsQueries.approvals(connection, projectId, iid));
  const state = useQuery(approvalsQueries.state(connection, projectId, iid));
  return (
    <section className="review-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="review-panel__heading">
        Approvals
      </h2>
      {approvals.isPending || state.isPending ? (
        <RoutePending />
      ) : approvals.data === undefined || state.data === undefined ? (
        <ErrorPanel error={approvals.error ?? state.error} onRetry={() => void Promise.all([approvals.refetch(), state.refetch()])} />
      ) : (
        <ApprovalPanelBody projectId={projectId} iid={iid} approvals={approvals.data} state={state.data} />
      )}
    </section>
  );
}

function ApprovalPanelBody({ projectId, iid, approvals, state }: { projectId: number; iid: number; approvals: Approvals; state: ApprovalState }) {
  const connection = useConnection();
  const session = useActiveSession()?.connection;
  const request = useSuspenseQuery(mergeRequestsQueries.detail(connection, projectId, iid)).data;
  const ref = { projectId, iid };
  const approval = useApproval(ref);
  const reload = useReloadRequest(ref);
  const [asking, setAsking] = useState(false);
  const right = useApprovalRight(projectId, iid, request, approvals);
  const head = loadedHead(request);
  const needsPassword = approvals.require_password_to_approve;
  const approving = approval.variables?.approve === true;
  const sending = approval.status === 'pending';

  const onApprove = () => {
    if (!head) return;
    if (needsPassword) {
      approval.reset();
      setAsking(true);
      return;
    }
    approval.mutate({ approve: true, sha: head });
  };
  const onReload = async () => {
    await reload();
    approval.reset();
  };
  const refused = approval.status === 'refused' ? approval.error : null;
  const conflict = approving && refused && isNewCommits(refused);

  return (
    <>
      <p className="review-panel__summary">
        <ApprovalSummary approvals={approvals} />
      </p>
      {/* two elements, not one whose text changes: assistive technology and paint timing see the approval arrive */}
      {approvals.approved_by.length ? <p key="approved">Approved by {approverNames(approvals, session?.userId)}.</p> : <p key="none">No approvals yet.</p>}
      <RulesTable state={state} />
      <p className={right.canApprove ? undefined : 'muted'}>{right.reason}</p>
      {asking ? null : conflict ? (
        <NewCommitsAlert onReload={() => void onReload()} />
      ) : refused ? (
        <p className="form-error" role="alert">
          {approving ? 'Not approved' : 'The approval was not withdrawn'}: {errorText(refused)}
        </p>
      ) : (
        <UncertainWrite write={approval} />
      )}
      <div className="review-panel__actions">
        {right.canApprove && head ? (
          <button
            type="button"
            className="button button--primary"
            disabled={approval.isPending}
            aria-busy={(sending && approving) || undefined}
            onClick={onApprove}
          >
            {sending && approving && !asking ? 'Approving…' : 'Approve'}
          </button>
        ) : null}
        {approvals.user_has_approved && session?.canWrite ? (
          <button
            type="button"
            className="button"
            disabled={approval.isPending}
            aria-busy={(sending && !approving) || undefined}
            onClick={() => approval.mutate({ approve: false })}
          >
            {sending && !approving ? 'Revoking approval…' : 'Revoke approval'}
          </button>
        ) : null}
        {session?.isBot && session.canWrite && approvals.approved_by.length ? <ResetApprovals projectId={projectId} iid={iid} /> : null}
      </div>
      {asking && head ? (
        <PasswordDialog
          approval={approval}
          sha={head}
          onReload={onReload}
          onClose={() => {
            setAsking(false);
            // the password went in the request's variables: forget them
            approval.reset();
          }}
        />
      ) : null}
    </>
  );
}

function ApprovalSummary({ approvals }: { approvals: Approvals }) {
  if (!approvals.approvals_required) return <>Approval is optional: no rule requires one.</>;
  if (approvals.approved) return <strong>Approved: every rule has the approvals it requires.</strong>;
  const left = approvals.approvals_left;
  return (
    <strong>
      {formatCountOf(left, 'more approval', 'more approvals')} required
      {approvals.approval_rules_left.length ? ` (from ${listWords(approvals.approval_rules_left.map((rule) => rule.name))})` : ''}.
    </strong>
  );
}

function RulesTable({ state }: { state: ApprovalState }) {
  if (!state.rules.length) return null;
  return (
    <div className="table-scroll">
      <table className="review-panel__rules">
        <caption className="sr-only">Approval rules{state.approval_rules_overwritten ? ' of this merge request' : ''}</caption>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Approvals</th>
            <th scope="col">Approved by</th>
            <th scope="col">Who can approve</th>
          </tr>
        </thead>
        <tbody>
          {state.rules.map((rule) => {
            const given = rule.approved_by.length;
            const missing = Math.max(0, rule.approvals_required - given);
            return (
              <tr key={rule.id}>
                <th scope="row">{rule.name}</th>
                <td>
                  {given} of {rule.approvals_required}
                  {missing ? (
                    <span className="muted"> · {missing} still needed</span>
                  ) : rule.approvals_required ? (
                    <span> · approved</span>
                  ) : (
                    <span className="muted"> · optional</span>
                  )}
                </td>
                <td>{rule.approved_by.length ? listWords(rule.approved_by.map((user) => user.name)) : <span className="muted">nobody yet</span>}</td>
                <td>
                  {rule.rule_type === 'any_approver' ? (
                    'Any eligible member'
                  ) : rule.eligible_approvers.length ? (
                    listWords(rule.eligible_approvers.map((user) => user.name))
                  ) : (
                    <span className="muted">nobody: the rule names no one who can approve</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Why the caller can or cannot approve: the platform's `user_can_approve`, explained by the
 * project's settings, the author, and (only when committers may not approve) the request's commits.
 */
function useApprovalRight(projectId: number, iid: number, request: MergeRequestDetail, approvals: Approvals) {
  const connection = useConnection();
  const session = useActiveSession()?.connection;
  const refused = !approvals.user_can_approve && !approvals.user_has_approved && request.state === 'opened';
  const settings = useQuery({ ...approvalsQueries.settings(connection, projectId), enabled: refused });
  const isAuthor = request.author?.id === session?.userId;
  const askCommits = refused && Boolean(settings.data?.merge_requests_disable_committers_approval) && !(isAuthor && !settings.data?.merge_requests_author_approval);
  const caller = useQuery({ ...approvalsQueries.caller(connection), enabled: askCommits });
  const commits = useQuery({ ...mergeRequestsQueries.commits(connection, projectId, iid), enabled: askCommits });
  let isCommitter: boolean | null = null;
  if (caller.data && commits.data) {
    const mine = new Set([caller.data.email, caller.data.commit_email, caller.data.public_email].filter(Boolean).map((email) => email!.toLowerCase()));
    isCommitter = commits.data.items.some((commit) => [commit.author_email, commit.committer_email].some((email) => email && mine.has(email.toLowerCase())));
  }
  return explainApprovalRight({
    userCanApprove: approvals.user_can_approve,
    userHasApproved: approvals.user_has_approved,
    canWrite: Boolean(session?.canWrite),
    requestState: request.state,
    isAuthor,
    // unknown (loading, or failed) settings give no reason rather than a wrong one
    authorMayApprove: settings.data?.merge_requests_author_approval ?? null,
    committersMayNotApprove: settings.data?.merge_requests_disable_committers_approval ?? null,
    isCommitter,
  });
}

/** A 409: the head the reviewer saw is no longer the branch's; Reload refetches the request, its changes and approvals. */
function NewCommitsAlert({ onReload }: { onReload: () => void }) {
  return (
    <div className="form-error" role="alert">
      <p>New commits were pushed to this merge request since you loaded it, so it was not approved. Reload to see the new changes, then approve again.</p>
      <button type="button" className="button" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}

const isWrongPassword = (error: Error | null) => error instanceof ApiError && error.status === 401;

/** Re-authentication before approving: the password is held by this dialog only, and goes with the one request. */
function PasswordDialog({ approval, sha, onClose, onReload }: { approval: ReturnType<typeof useApproval>; sha: string; onClose: () => void; onReload: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setMissing(true);
      return;
    }
    approval.mutate({ approve: true, sha, password }, { onSuccess: onClose });
  };
  const error = approval.status === 'refused' ? approval.error : null;
  const fieldError =
    missing && !password ? 'Enter your password.' : isWrongPassword(error) ? 'The password is not correct. Enter the password you sign in to the instance with.' : undefined;
  return (
    <Dialog
      open
      onOpenChange={(open) => (!open && !approval.isPending ? onClose() : undefined)}
      title="Approve with your password"
      description="This project asks approvers to confirm who they are. The password is sent with this approval only and kept nowhere."
    >
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Password" error={fieldError}>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            value={password}
            autoFocus
            onChange={(event) => {
              setPassword(event.target.value);
              setMissing(false);
            }}
          />
        </Field>
        {error && isNewCommits(error) ? (
          <NewCommitsAlert
            // closed once the new head is in, so an approval pressed next carries it
            onReload={() => void onReload().then(onClose)}
          />
        ) : error && !isWrongPassword(error) ? (
          <p className="form-error" role="alert">
            Not approved: {errorText(error)}
          </p>
        ) : null}
        <UncertainWrite write={approval} />
        <div className="dialog__actions">
          <button type="button" className="button" disabled={approval.isPending} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={approval.isPending} aria-busy={approval.isPending || undefined}>
            {approval.isPending ? 'Approving…' : 'Approve'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Bots of project and group access tokens may clear every approval (the platform answers 401 to anyone else). */
function ResetApprovals({ projectId, iid }: { projectId: number; iid: number }) {
  const reset = useResetApprovals({ projectId, iid });
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--danger-quiet"
        onClick={() => {
          reset.reset();
          setOpen(true);
        }}
      >
        Reset approvals
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Reset every approval?"
        description="Every approval given to this merge request is removed; the approvers must approve again before it can merge."
        confirmLabel="Reset approvals"
        destructive
        write={reset}
        error={reset.status === 'refused' ? `The approvals were not reset: ${errorText(reset.error)}` : undefined}
        onConfirm={() => reset.mutate(undefined, { onSuccess: () => setOpen(false) })}
      />
    </>
  );
}
