import { useQuery } from '@tanstack/react-query';
import { systemHooksQueries, type HookDelivery } from '../../api/system-hooks.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { EmptyState } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';

const deliveryColumns: ColumnDef<HookDelivery>[] = [
  { id: 'when', header: 'When', cell: ({ row: { original: delivery } }) => <Time value={delivery.created_at} relative /> },
  { id: 'trigger', header: 'Trigger', cell: ({ row: { original: delivery } }) => delivery.trigger ?? '' },
  { id: 'status', header: 'Status', cell: ({ row: { original: delivery } }) => delivery.response_status },
  {
    id: 'duration',
    header: 'Duration',
    cell: ({ row: { original: delivery } }) => (delivery.execution_duration === null || delivery.execution_duration === undefined ? '' : `${delivery.execution_duration.toFixed(2)} s`),
  },
  { id: 'error', header: 'Error', cell: ({ row: { original: delivery } }) => delivery.internal_error_message ?? '' },
];

/** From the sandbox's log; a real instance keeps none for system hooks, and the screen says so. */
export function RecentDeliveries({ hookId }: { hookId: number }) {
  const connection = useConnection();
  const deliveries = useQuery(systemHooksQueries.deliveries(connection, hookId));
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Recent deliveries</h2>
      {deliveries.isPending ? (
        <p className="muted" role="status">
          Loading deliveries…
        </p>
      ) : deliveries.isError ? (
        <ErrorPanel error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : !deliveries.data.available ? (
        <p className="notice" role="note">
          Recent deliveries are not available on this instance: the platform keeps no delivery log for system hooks (the bundled sandbox does).
        </p>
      ) : deliveries.data.deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet." />
      ) : (
        <DataTable caption="Recent deliveries" columns={deliveryColumns} data={deliveries.data.deliveries} getRowId={(delivery) => String(delivery.id)} />
      )}
    </section>
  );
}
