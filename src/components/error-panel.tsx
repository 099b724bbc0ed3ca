import { useEffect, type ReactNode } from 'react';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ApiError } from '../api/errors.ts';
import { RouteLink } from './route-link.tsx';

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

interface ErrorPanelProps {
  error: unknown;
  onRetry?: () => void;
  /** The panel is the whole screen: its title is the page's heading. */
  screen?: boolean;
  children?: ReactNode;
}

export function ErrorPanel({ error, onRetry, screen = false, children }: ErrorPanelProps) {
  const Title = screen ? 'h1' : 'p';
  return (
    <div className="error-panel" role="alert">
      <Title className="error-panel__title">{errorTitle(error)}</Title>
      <p className="error-panel__message">{errorText(error)}</p>
      {onRetry || children ? (
        <div className="error-panel__actions">
          {onRetry ? (
            <button type="button" className="button" onClick={onRetry}>
              Try again
            </button>
          ) : null}
          {children}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The router's error component: shows the ApiError as the screen, with its heading, and retries
 * the route's loader. A screen that is missing or not the caller's (a stale link, a link from
 * someone else) also leads home: trying again seldom changes that answer.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  useEffect(() => queryReset.reset(), [queryReset]);
  const closed = error instanceof ApiError && error.kind === 'http' && [401, 403, 404].includes(error.status);
  return (
    <ErrorPanel error={error} onRetry={() => void router.invalidate()} screen>
      {closed ? <RouteLink to="/">Go to your home page</RouteLink> : null}
    </ErrorPanel>
  );
}
