import type { ColumnDef } from '../../components/data-table.tsx';
import type { UserSummary } from '../../api/users.ts';
import { PersonCell } from '../../components/person-cell.tsx';

/** The people directory's and the follow lists' columns. */
export function personColumns(header: string): ColumnDef<UserSummary>[] {
  return [
    { id: 'person', header, cell: ({ row }) => <PersonCell person={row.original} /> },
    { id: 'state', header: 'State', cell: ({ row }) => row.original.state },
  ];
}
