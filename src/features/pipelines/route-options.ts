import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { prefetchMyAccess } from '../../api/members.ts';
import { pipelinesQueries, type PipelineListParams } from '../../api/pipelines.ts';
import type { SessionStore } from '../../api/session.ts';
import { sinceOf, untilOf } from '../../lib/time.ts';
import type { PipelinesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/** The URL's search as the API's params: days as datetimes (UTC, as the commit history's), empty filters dropped by the client. */
export function pipelineListParams(search: PipelinesSearch): PipelineListParams {
  const { scope, status, source, updated_after: after, updated_before: before, ...rest } = search;
  return {
    ...rest,
    scope: scope || undefined,
    status: status || undefined,
    source: source || undefined,
    updated_after: sinceOf(after),
    updated_before: untilOf(before),
  };
}

/** The caller's role is asked beside the list (it decides which row actions show); a failed list shows on the screen. */
export function loadPipelines(context: LoaderContext, projectId: number, search: PipelinesSearch) {
  prefetchMyAccess(context, { project: projectId });
  return context.queryClient.ensureQueryData(pipelinesQueries.list(context.api, projectId, pipelineListParams(search))).catch(() => undefined);
}
