import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { branchesQueries } from '../../api/branches.ts';
import type { Commit, PickKind } from '../../api/commits.ts';
import { useConnection } from '../../api/react.ts';
import { Dialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { checkText } from './commit-text.ts';
import { useCheckPick, usePick } from './mutations.ts';

interface PickDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: PickKind;
  projectId: number;
  commit: Commit;
}

const WORDS = {
  cherry_pick: { verb: 'Cherry-pick', done: 'Cherry-picked', effect: 'a copy of this commit’s changes' },
  revert: { verb: 'Revert', done: 'Reverted', effect: 'a commit that undoes this commit’s changes' },
} as const;

/**
 * Cherry-pick or revert onto a branch: a dry run first shows whether it applies, nothing is
 * written until the caller confirms the branch it was checked against.
 */
export function PickDialog({ open, onOpenChange, kind, projectId, commit }: PickDialogProps) {
  const connection = useConnection();
  const notify = useNotify();
  const words = WORDS[kind];
  const [branch, setBranch] = useState('');
  const [message, setMessage] = useState('');
  const [checkedBranch, setCheckedBranch] = useState<string | null>(null);
  const check = useCheckPick(projectId, kind);
  const pick = usePick(projectId, kind);
  const branches = useQuery({ ...branchesQueries.list(connection, projectId, { per_page: 100 }), enabled: open });
  const branchListId = useId();
  const hintId = useId();

  const target = branch.trim();
  const known = branches.data?.items.find((item) => item.name === target);
  const refused = known && !known.can_push ? `You cannot push to ${target}: it is protected.` : null;
  const checked = check.data && checkedBranch === target ? check.data : null;
  const busy = check.isPending || pick.isPending;

  const runCheck = () => {
    if (!target || refused || busy) return;
    pick.reset();
    setCheckedBranch(target);
    check.mutate({ sha: commit.id, branch: target });
  };
  const confirm = () => {
    if (!checked?.applies || busy) return;
    pick.mutate(
      { sha: commit.id, branch: target, message: kind === 'cherry_pick' ? message.trim() || undefined : undefined },
      { onSuccess: (created) => notify(`${words.done} ${commit.short_id} onto ${target} as ${created.short_id}.`) },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pick.isPending && onOpenChange(next)}
      title={`${words.verb} ${commit.short_id}`}
      description={`Adds ${words.effect} to the branch you choose. A dry run checks first; nothing is written until you confirm.`}
    >
      {pick.data ? (
        <div role="status">
          <p>
            {words.done} onto {target} as{' '}
            <Link to="/projects/$projectId/commit/$sha" params={{ projectId: String(projectId), sha: pick.data.id }} onClick={() => onOpenChange(false)}>
              {pick.data.short_id} {pick.data.title}
            </Link>
            .
          </p>
          <div className="dialog__actions">
            <button type="button" className="button button--primary" onClick={() => onOpenChange(false)}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            runCheck();
          }}
        >
          <div className="field">
            <label className="field__label" htmlFor={`${branchListId}-input`}>
              Target branch
            </label>
            <input
              id={`${branchListId}-input`}
              className="input"
              list={branchListId}
              value={branch}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={hintId}
              aria-invalid={refused ? true : undefined}
              onChange={(event) => setBranch(event.target.value)}
            />
            <datalist id={branchListId}>
              {branches.data?.items.filter((item) => item.can_push).map((item) => <option key={item.name} value={item.name} />)}
            </datalist>
            <p className="field__hint" id={hintId}>
              {refused ?? (branches.isError ? `The branch list could not be loaded (${errorText(branches.error)}); type the branch name.` : 'Suggestions are the branches you may push to.')}
            </p>
          </div>
          {kind === 'cherry_pick' ? (
            <div className="field">
              <label className="field__label" htmlFor={`${branchListId}-message`}>
                Commit message (optional)
              </label>
              <textarea id={`${branchListId}-message`} className="input" rows={3} value={message} placeholder="The original message, noting where it was picked from" onChange={(event) => setMessage(event.target.value)} />
            </div>
          ) : null}
          {checked ? (
            <p role={checked.applies ? 'status' : 'alert'} className={checked.applies ? 'notice' : 'form-error'}>
              {checkText(checked, target, kind)}
            </p>
          ) : check.isError && checkedBranch === target ? (
            <p role="alert" className="form-error">
              The dry run failed: {errorText(check.error)}
            </p>
          ) : null}
          {pick.isError ? (
            <p role="alert" className="form-error">
              {words.verb} failed: {errorText(pick.error)}
            </p>
          ) : null}
          <UncertainWrite write={pick} />
          <div className="dialog__actions">
            <button type="button" className="button" disabled={pick.isPending} onClick={() => onOpenChange(false)}>
              Cancel
            </button>
            <button type="submit" className={checked?.applies ? 'button' : 'button button--primary'} disabled={!target || Boolean(refused) || busy} aria-busy={check.isPending || undefined}>
              {check.isPending ? 'Checking…' : 'Check (dry run)'}
            </button>
            {checked?.applies ? (
              <button type="button" className="button button--primary" disabled={busy} aria-busy={pick.isPending || undefined} onClick={confirm}>
                {pick.isPending ? `${words.verb}ing…` : `${words.verb} onto ${target}`}
              </button>
            ) : null}
          </div>
        </form>
      )}
    </Dialog>
  );
}
