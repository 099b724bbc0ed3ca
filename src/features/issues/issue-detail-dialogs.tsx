import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { Issue } from '../../api/issues.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { SearchInput } from '../../components/list-controls.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useCloneIssue, useDeleteIssue, useMoveIssue, type IssueRef } from './issue-detail-mutations.ts';
import { PickerStatus } from '../../components/picker-status.tsx';

type Target = { id: number; name: string };

/** Picks the project an issue goes to among the caller's projects (every project for administrators). */
function ProjectPicker({ currentId, value, onChange, everywhere }: { currentId: number; value: Target | null; onChange: (target: Target) => void; everywhere: boolean }) {
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const projects = useQuery({ ...projectsQueries.search(connection, search, everywhere), placeholderData: keepPreviousData });
  const name = useId();
  const others = (projects.data?.items ?? []).filter((project) => project.id !== currentId);
  return (
    <fieldset className="field user-picker">
      <legend className="field__label">Target project</legend>
      <SearchInput label="Search your projects" value={search} onSearch={setSearch} placeholder="Project name" delayMs={200} />
      <PickerStatus error={projects.error} empty={projects.data && others.length === 0 ? (search ? `No other project matches “${search}”.` : 'You have no other project.') : null} />
      <div className="user-picker__results" role="radiogroup" aria-label="Projects">
        {others.map((project) => (
          <label key={project.id} className="user-picker__option">
            <input type="radio" name={name} checked={value?.id === project.id} onChange={() => onChange({ id: project.id, name: project.name_with_namespace })} />
            <span>{project.name_with_namespace}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

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
      <ProjectPicker currentId={issueRef.projectId} value={target} onChange={setTarget} everywhere={isAdmin} />
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
      <ProjectPicker currentId={issueRef.projectId} value={target} onChange={setTarget} everywhere={isAdmin} />
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
