import { useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { pipelinesQueries, type PipelineVariable } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Note } from '../../components/note.tsx';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { variablesRefusal } from './variables-access.ts';

/** A variable the instance marks masked (or hidden) is never shown, even on request. */
function isMasked(variable: PipelineVariable): boolean {
  const flags = variable as PipelineVariable & { masked?: unknown; hidden?: unknown };
  return flags.masked === true || flags.hidden === true;
}

/** The variables the pipeline ran with, for those the platform shows them to; anyone else is told why. */
export function PipelineVariables({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  if (failure) return <RoleUnread failure={failure} withheld="the variables are not shown" />;
  if (pending) return <RoutePending />;
  const refusal = variablesRefusal(caller);
  return refusal ? <Note>{refusal}</Note> : <VariableList projectId={projectId} pipelineId={pipelineId} />;
}

/** Values stay hidden until asked for (they are often secrets on screen); masked ones stay hidden. */
function VariableList({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const connection = useConnection();
  const variables = useSuspenseQuery(pipelinesQueries.variables(connection, projectId, pipelineId)).data;
  const [revealed, setRevealed] = useState(false);
  if (!variables.length) return <EmptyState title="No variables">This pipeline ran without variables of its own (those of the CI file and the project are not listed here).</EmptyState>;
  const columns: ColumnDef<PipelineVariable>[] = [
    { id: 'key', header: 'Key', cell: ({ row }) => <code className="breakable">{row.original.key}</code> },
    { id: 'type', header: 'Type', cell: ({ row }) => (row.original.variable_type === 'file' ? 'File' : 'Variable') },
    {
      id: 'value',
      header: 'Value',
      cell: ({ row }) =>
        isMasked(row.original) ? (
          <span className="muted">Masked</span>
        ) : revealed ? (
          <code className="breakable">{row.original.value ?? ''}</code>
        ) : (
          <span className="muted" aria-label="Hidden value">
            ••••••
          </span>
        ),
    },
  ];
  return (
    <>
      <p>
        <button type="button" className="button" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
          {revealed ? 'Hide values' : 'Reveal values'}
        </button>
      </p>
      <DataTable caption="Variables of the pipeline" columns={columns} data={variables} getRowId={(variable) => variable.key} />
    </>
  );
}
