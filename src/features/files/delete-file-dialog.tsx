import { useState } from 'react';
import type { FileMeta } from '../../api/files.ts';
import { useActiveSession } from '../../api/react.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { branchNameProblem, defaultTargetBranch } from './commit-fields.tsx';
import { useDeleteFile } from './mutations.ts';
import type { FilesContext } from './use-files-context.ts';

interface DeleteFileDialogProps {
  projectId: number;
  file: FileMeta;
  context: FilesContext;
  onClose: () => void;
  onDeleted: (branch: string) => void;
}

/** Confirms removing a file: says which file, on which branch, and that history keeps it. */
export function DeleteFileDialog({ projectId, file, context, onClose, onDeleted }: DeleteFileDialogProps) {
  const username = useActiveSession()?.connection.username;
  const remove = useDeleteFile();
  const [message, setMessage] = useState(`Delete ${file.file_name}`);
  const [branch, setBranch] = useState(() => defaultTargetBranch(context.gitRef, context.access, username));
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = () => {
    const target = branch.trim();
    const invalid = !message.trim() ? 'Write a commit message.' : branchNameProblem(target);
    if (invalid) return setProblem(invalid);
    if (target === context.gitRef && !context.access.canPushToRef) return setProblem(`You cannot push to ${context.gitRef}: name a new branch.`);
    setProblem(null);
    remove.mutate(
      {
        projectId,
        path: file.file_path,
        branch: target,
        startBranch: target !== context.gitRef ? context.gitRef : undefined,
        commitMessage: message.trim(),
        lastCommitId: file.last_commit_id,
      },
      { onSuccess: () => onDeleted(target) },
    );
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (!open ? onClose() : undefined)}
      title={`Delete ${file.file_path}?`}
      description={`A commit removes ${file.file_path} from the branch you name below. Earlier commits keep it in the history.`}
      confirmLabel="Delete file"
      destructive
      write={remove}
      onConfirm={confirm}
      error={problem ?? (remove.error ? errorText(remove.error) : null)}
    >
      <div className="form">
        <label className="field">
          <span className="field__label">Commit message</span>
          <input className="input" value={message} onChange={(event) => setMessage(event.target.value)} disabled={remove.isPending} />
        </label>
        <label className="field">
          <span className="field__label">Target branch</span>
          <input className="input" value={branch} onChange={(event) => setBranch(event.target.value)} disabled={remove.isPending} spellCheck={false} />
        </label>
      </div>
    </ConfirmDialog>
  );
}
