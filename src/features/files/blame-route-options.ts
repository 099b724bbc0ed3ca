import type { QueryClient } from '@tanstack/react-query';
import { blameQueries } from '../../api/blame.ts';
import type { Connection } from '../../api/http.ts';
import { projectsQueries } from '../../api/projects.ts';
import { firstBlameLines } from '../../api/first-requests.ts';
import { parseLineHash } from '../../lib/line-hash.ts';

/**
 * Starts the first lines the screen will ask for (around the URL's line, or the top)
 * while the screen's code loads; the screen's own request then joins it. Never awaited: the
 * header shows at once and the lines follow.
 */
export function prefetchFirstBlameLines(context: { queryClient: QueryClient; api: Connection }, projectId: number, filePath: string, ref: string, hash: string): void {
  void (async () => {
    const resolvedRef = ref || (await context.queryClient.ensureQueryData(projectsQueries.detail(context.api, projectId))).default_branch;
    if (!resolvedRef || !filePath) return;
    await context.queryClient.prefetchQuery(blameQueries.range(context.api, { projectId, filePath, ref: resolvedRef, ...firstBlameLines(parseLineHash(hash)?.first ?? null) }));
  })().catch(() => {
    // the screen asks again and shows the error with a retry
  });
}
