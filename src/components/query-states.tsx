import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorPanel } from './error-panel.tsx';
import { RoutePending } from './states.tsx';

/**
 * A list query's distinct states: loading; failed with nothing to show (the error and Retry);
 * or its data, with a failed refresh's error and Retry above what is still shown.
 */
export function QueryStates<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <RoutePending />;
  const retry = () => void query.refetch();
  if (query.data === undefined) return <ErrorPanel error={query.error} onRetry={retry} />;
  return (
    <>
      {query.isError ? <ErrorPanel error={query.error} onRetry={retry} /> : null}
      {children(query.data)}
    </>
  );
}
