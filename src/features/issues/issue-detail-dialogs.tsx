import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { Issue } from '../../api/issues.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useCloneIssue, useDeleteIssue, useMoveIssue, type IssueRef } from './issue-detail-mutations.ts';
import { ProjectPicker, type PickedProject } from '../../components/project-picker.tsx';

type Target = PickedProject;

interface DialogProps {
  onClose: () => void;
  issue: Issue;
  issueRef: IssueRef;
  isAdmin: boolean;
}

export function MoveIssueDialog({ onClose, issue, issueRef, isAdmin }: DialogProps) {
  const move = useMoveIssue(issueRef);
  const navigate = useNavigate();
  const notify = useNotify();
  const [target, setTarget] = useState<Target | null>(null);
  const [unpicked, setUnpicked] = useState(false);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Move issue #${issue.iid}`}
      description={
        target
          ? `“${issue.title}” moves to ${target.name} as a new issue there, with its comments; labels and milestones are matched there by name. This issue is closed and points to the new one.`
          : 'Pick the project the issue moves to. It is closed here and opens there, with its comments.'
      }
      confirmLabel="Move issue"
      write={move}
      error={move.status === 'refused' ? errorText(move.error) : unpicked && !target ? 'Pick the project first.' : undefined}
      onConfirm={() => {
        if (!target) return setUnpicked(true);
        move.mutate(
          { toProjectId: target.id },
          {
            onSuccess: (moved) => {
              onClose();
              notify(`Moved to ${target.name} as #${moved.iid}.`);
              void navigate({ to: '/projects/$projectId/issues/$issueIid', params: { projectId: String(moved.project_id), issueIid: String(moved.iid) } });
            },
          },
        );
      }}
    >
      <ProjectPicker legend="Target project" value={target} onChange={setTarget} everywhere={isAdmin} excluded={[issueRef.projectId]} noneLeft="You have no other project." />
    </ConfirmDialog>
  );
}

export function CloneIssueDialog({ onClose, issue, issueRef, isAdmin }: DialogProps) {
  const clone = useCloneIssue(issueRef);
  const navigate = useNavigate();
  const notify = useNotify();
  const [target, setTarget] = useState<Target | null>(null);
  const [withNotes, setWithNotes] = useState(false);
  const [unpicked, setUnpicked] = useState(false);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Clone issue #${issue.iid}`}
      description={
        target
          ? `A copy of “${issue.title}” is created in ${target.name}${withNotes ? ', with its comments' : ', without its comments'}. This issue stays as it is.`
          : 'Pick the project the copy goes to. This issue stays as it is.'
      }
      confirmLabel="Clone issue"
      write={clone}
      error={clone.status === 'refused' ? errorText(clone.error) : unpicked && !target ? 'Pick the project first.' : undefined}
      onConfirm={() => {
        if (!target) return setUnpicked(true);
        clone.mutate(
          { toProjectId: target.id, withNotes },
          {
            onSuccess: (cloned) => {
              onClose();
              notify(`Cloned to ${target.name} as #${cloned.iid}.`);
              void navigate({ to: '/projects/$projectId/issues/$issueIid', params: { projectId: String(cloned.project_id), issueIid: String(cloned.iid) } });
            },
          },
        );
      }}
    >
      <ProjectPicker legend="Target project" value={target} onChange={setTarget} everywhere={isAdmin} excluded={[issueRef.projectId]} noneLeft="You have no other project." />
      <label className="checkbox">
        <input type="checkbox" checked={withNotes} onChange={(event) => setWithNotes(event.target.checked)} />
        Copy the comments too
      </label>
    </ConfirmDialog>
  );
}

export function DeleteIssueDialog({ onClose, issue, issueRef }: Omit<DialogProps, 'isAdmin'>) {
  const remove = useDeleteIssue(issueRef);
  const notify = useNotify();
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete issue #${issue.iid}?`}
      description={`“${issue.title}” is deleted for good, with its comments, reactions and time records. Closing it instead keeps its history.`}
      confirmLabel="Delete issue"
      destructive
      write={remove}
      error={remove.status === 'refused' ? errorText(remove.error) : undefined}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            onClose();
            notify(`Deleted issue #${issue.iid}.`);
            // the project's issue list
            void navigate({ href: `/projects/${issueRef.projectId}/issues` });
          },
        })
      }
    />
  );
}
