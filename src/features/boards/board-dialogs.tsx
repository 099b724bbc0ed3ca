import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Board, ListSubject } from '../../api/boards.ts';
import type { Scope } from '../../api/keys.ts';
import { labelsQueries } from '../../api/labels.ts';
import { membersQueries } from '../../api/members.ts';
import { milestonesQueries } from '../../api/milestones.ts';
import { useConnection } from '../../api/react.ts';
import { Dialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormActions, FormError } from '../../components/form-footer.tsx';
import { useCreateBoard, useCreateList } from './mutations.ts';

/** Mounted while open: closing unmounts the dialog, and its state with it. */
interface DialogProps {
  onOpenChange: (open: boolean) => void;
  scope: Scope;
}

/** spec 2, boards: a name up to 255 characters. */
const NAME_MAX = 255;

export function CreateBoardDialog({ onOpenChange, scope, onCreated }: DialogProps & { onCreated: (board: Board) => void }) {
  const write = useCreateBoard();
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setInvalid('Enter a name.');
    if (trimmed.length > NAME_MAX) return setInvalid(`At most ${NAME_MAX} characters.`);
    setInvalid(null);
    write.mutate({ scope, name: trimmed }, { onSuccess: (board) => (onOpenChange(false), setName(''), onCreated(board)) });
  };
  return (
    <Dialog open onOpenChange={(next) => (write.isPending ? undefined : (write.reset(), setInvalid(null), onOpenChange(next)))} title="Create board">
      <form onSubmit={submit} noValidate>
        <Field label="Board name" error={invalid ?? undefined}>
          <input className="input" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </Field>
        <FormError message={write.status === 'refused' ? errorText(write.error) : null} />
        <FormActions write={write} onCancel={() => onOpenChange(false)} submitLabel="Create board" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

type ListKind = 'label' | 'assignee' | 'milestone';

/** A new column: a label (the platform's usual list), an assignee or a milestone not on the board yet. */
export function AddListDialog({ onOpenChange, scope, board }: DialogProps & { board: Board }) {
  const connection = useConnection();
  const write = useCreateList();
  const [kind, setKind] = useState<ListKind>('label');
  const [choice, setChoice] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const labels = useQuery({ ...labelsQueries.list(connection, scope, { page: 1, per_page: 100, include_ancestor_groups: true }), enabled: kind === 'label' });
  const milestones = useQuery({ ...milestonesQueries.list(connection, scope, { page: 1, per_page: 100, state: 'active', include_ancestors: true }), enabled: kind === 'milestone' });
  const members = useQuery({ ...membersQueries.list(connection, scope, 'all', { page: 1, per_page: 100 }), enabled: kind === 'assignee' });

  const taken = new Set(board.lists.map((list) => (list.label ? `label-${list.label.id}` : list.assignee ? `assignee-${list.assignee.id}` : `milestone-${list.milestone?.id}`)));
  const options =
    kind === 'label'
      ? (labels.data?.items ?? []).map((label) => ({ id: label.id, name: label.name }))
      : kind === 'milestone'
        ? (milestones.data?.items ?? []).map((milestone) => ({ id: milestone.id, name: milestone.title }))
        : (members.data?.items ?? []).map((member) => ({ id: member.id, name: `${member.name} (@${member.username})` }));
  const available = options.filter((option) => !taken.has(`${kind}-${option.id}`));
  const source = kind === 'label' ? labels : kind === 'milestone' ? milestones : members;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(choice);
    if (!choice || !available.some((option) => option.id === id)) return setInvalid(`Choose a ${kind}.`);
    setInvalid(null);
    const subject: ListSubject = kind === 'label' ? { label_id: id } : kind === 'milestone' ? { milestone_id: id } : { assignee_id: id };
    write.mutate({ scope, boardId: board.id, subject }, { onSuccess: () => (onOpenChange(false), setChoice('')) });
  };
  return (
    <Dialog open onOpenChange={(next) => (write.isPending ? undefined : (write.reset(), setInvalid(null), onOpenChange(next)))} title="Add list">
      <form onSubmit={submit} noValidate>
        <Field label="List type">
          <select className="input" value={kind} onChange={(event) => (setKind(event.target.value as ListKind), setChoice(''), setInvalid(null))}>
            <option value="label">Label</option>
            <option value="assignee">Assignee</option>
            <option value="milestone">Milestone</option>
          </select>
        </Field>
        <Field label={kind === 'label' ? 'Label' : kind === 'milestone' ? 'Milestone' : 'Assignee'} error={invalid ?? undefined} hint={source.isPending ? 'Loading…' : source.isSuccess && !available.length ? `Every ${kind} is on the board already.` : undefined}>
          <select className="input" value={choice} onChange={(event) => setChoice(event.target.value)}>
            <option value="">Choose…</option>
            {available.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </Field>
        <FormError message={source.isError ? errorText(source.error) : write.status === 'refused' ? errorText(write.error) : null} />
        <FormActions write={write} onCancel={() => onOpenChange(false)} submitLabel="Add list" pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}
