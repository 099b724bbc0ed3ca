/** The sandbox-only registry control (README): what a `docker push` of these tags would leave behind. */

export interface PushedTag {
  name: string;
  created_at?: string | null;
  size?: number;
}

export interface RegistryControlServer {
  baseURL: string;
  adminToken: string;
}

export interface PushedRepository {
  id: number;
  path: string;
  tags_count: number;
}

/**
 * Adds tags to a project's image (`''` the root image), creating it; the image's record back.
 * `anyName` stores names a registry refuses (markup), for escaping tests.
 */
export async function pushTags(server: RegistryControlServer, projectId: number, repository: string, tags: PushedTag[], anyName = false): Promise<PushedRepository> {
  const answer = await fetch(`${server.baseURL}/-/sandbox/registry/${projectId}/tags`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': server.adminToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ repository, tags, ...(anyName ? { allow_any_name: true } : {}) }),
  });
  if (answer.status !== 201) throw new Error(`POST /-/sandbox/registry answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as PushedRepository;
}
