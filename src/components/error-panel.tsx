import { useEffect } from 'react';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ApiError } from '../api/errors.ts';

/** Readable text for any error; an ApiError's message is already written for people. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}

function errorTitle(error: unknown): string {
  if (!(error instanceof ApiError)) return 'This screen failed';
  if (error.kind === 'network' || error.kind === 'timeout') return 'The instance could not be reached';
  if (error.kind === 'parse') return 'The instance answered in an unexpected form';
  // a 401 that means the token is gone leads to the connect screen; one shown here means "not for you"
  if (error.status === 403 || error.status === 401) return 'You are not allowed to see this';
  if (error.status === 404) return 'Not found, or not visible to you';
  if (error.status === 429) return 'The instance asks to slow down';
  if (error.status >= 500) return 'The instance had a problem';
  return 'The request was refused';
}

export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="error-panel" role="alert">
      <p className="error-panel__title">{errorTitle(error)}</p>
      <p className="error-panel__message">{errorText(error)}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** The router's error component: shows the ApiError and retries the route's loader. */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  useEffect(() => queryReset.reset(), [queryReset]);
  return <ErrorPanel error={error} onRetry={() => void router.invalidate()} />;
}
