import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { approvalsQueries, type ApprovalRule } from '../../api/approvals.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Note } from '../../components/note.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { approvalsReadOnly } from './permissions.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the rule forms load once the screen knows the caller may change rules, not before its first paint
const loadDialogs = chunk(() => import('./rule-dialogs.tsx'));
// the switches are a form (react-hook-form and its resolver): their code loads beside the settings' request, not in the route's chunk
const SettingsSection = lazyPart(chunk(() => import('./settings-section.tsx')), (module) => module.SettingsSection, <p role="status">Loading the settings…</p>);
const RuleDialog = lazyPart(loadDialogs, (module) => module.RuleDialog);
const DeleteRuleDialog = lazyPart(loadDialogs, (module) => module.DeleteRuleDialog);

export function ApprovalSettingsScreen({ projectId, projectName }: { projectId: number; projectName?: string }) {
  const connection = useConnection();
  const { caller, pending, failure } = useProjectCaller(projectId);
  const readOnly = pending ? 'Checking your role in this project…' : approvalsReadOnly(caller);
  const settings = useQuery(approvalsQueries.settings(connection, projectId));
  return (
    <section className="screen" aria-labelledby="approval-settings-heading">
      <header className="screen__header">
        <h1 id="approval-settings-heading">{projectName ? `Merge request approvals of ${projectName}` : 'Merge request approvals'}</h1>
      </header>
      <RoleUnread failure={failure} />
      {pending ? null : <Note>{readOnly}</Note>}
      <QueryStates query={settings}>
        {(data) => (
<SettingsSection projectId={projectId} settings={data} readOnly={readOnly} />
        )}
      </QueryStates>
      <RulesSection projectId={projectId} readOnly={readOnly} />
    </section>
  );
}

const names = (items: readonly { name: string }[]) => items.map((item) => item.name).join(', ');

function RulesSection({ projectId, readOnly }: { projectId: number; readOnly: string | null }) {
  const connection = useConnection();
  const rules = useQuery(approvalsQueries.rules(connection, { projectId }));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ApprovalRule | null>(null);
  const [deleting, setDeleting] = useState<ApprovalRule | null>(null);
  // the forms are mounted only while open: their code comes ahead, so a press does not wait for it
  usePreloadWhenIdle(loadDialogs, readOnly === null);
  const columns: ColumnDef<ApprovalRule>[] = [
    { id: 'name', header: 'Rule', cell: ({ row: { original: rule } }) => <strong>{rule.name}</strong> },
    { id: 'required', header: 'Approvals required', cell: ({ row: { original: rule } }) => rule.approvals_required },
    {
      id: 'approvers',
      header: 'Eligible approvers',
      cell: ({ row: { original: rule } }) =>
        rule.users.length + rule.groups.length === 0 ? (
          <span className="muted">{rule.rule_type === 'any_approver' ? 'Any member with Developer role or more' : 'Nobody chosen'}</span>
        ) : (
          <>
            {rule.users.length ? <div>Users: {names(rule.users)}</div> : null}
            {rule.groups.length ? <div>Groups: {rule.groups.map((group) => group.full_path ?? group.name).join(', ')}</div> : null}
          </>
        ),
    },
    {
      id: 'branches',
      header: 'Target branches',
      cell: ({ row: { original: rule } }) =>
        rule.protected_branches.length ? names(rule.protected_branches) : <span className="muted">{rule.applies_to_all_protected_branches ? 'All protected branches' : 'All branches'}</span>,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: rule } }) => (
        <div className="row-actions">
          <button type="button" className="button" disabled={readOnly !== null} title={readOnly ?? undefined} aria-label={`Edit ${rule.name}`} onClick={() => setEditing(rule)}>
            Edit
          </button>
          <button type="button" className="button button--danger-quiet" disabled={readOnly !== null} title={readOnly ?? undefined} aria-label={`Delete ${rule.name}`} onClick={() => setDeleting(rule)}>
            Delete
          </button>
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="approval-rules-heading">
      <h2 id="approval-rules-heading">Approval rules</h2>
      <div className="filter-bar" role="toolbar" aria-label="Approval rule actions">
        <button type="button" className="button button--primary" disabled={readOnly !== null} title={readOnly ?? undefined} onClick={() => setAdding(true)}>
          Add approval rule
        </button>
      </div>
      <QueryStates query={rules}>
        {(page) =>
          page.items.length === 0 ? (
            <EmptyState title="This project has no approval rules.">
              <p>Merge requests need no approvals until a rule asks for them.</p>
            </EmptyState>
          ) : (
            <DataTable caption="Approval rules" columns={columns} data={page.items} getRowId={(rule) => String(rule.id)} />
          )
        }
      </QueryStates>
      {adding ? <RuleDialog projectId={projectId} rule={null} onClose={() => setAdding(false)} /> : null}
      {editing ? <RuleDialog key={editing.id} projectId={projectId} rule={editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeleteRuleDialog projectId={projectId} rule={deleting} onClose={() => setDeleting(null)} /> : null}
    </section>
  );
}
