import { useRef } from 'react';
import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { ApiError } from '../api/errors.ts';

/**
 * A mutation that sends at most once per `arm()`, whatever the clicks: a repeated rotate would
 * be reuse of a revoked token and revoke its whole family. A 4xx refusal changed nothing, so the
 * corrected request may go once more; after a network error or 5xx it may already have happened.
 */
export function useSendOnce<TData, TVariables>(mutation: UseMutationResult<TData, Error, TVariables>) {
  const sent = useRef(false);
  return {
    ...mutation,
    /** Allows one request: when the dialog opens for an object. */
    arm: () => {
      sent.current = false;
      mutation.reset();
    },
    mutateOnce: (variables: TVariables, options?: MutateOptions<TData, Error, TVariables>) => {
      if (sent.current) return;
      sent.current = true;
      mutation.mutate(variables, {
        ...options,
        onError: (error, ...rest) => {
          if (error instanceof ApiError && error.kind === 'http' && error.status >= 400 && error.status < 500) sent.current = false;
          options?.onError?.(error, ...rest);
        },
      });
    },
  };
}
