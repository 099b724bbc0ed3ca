import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import type { Connection } from './http.ts';

/**
 * A sandbox on a free port for the client tests of one `describe`: the administrator's
 * connection, and a plain POST for setting up data without the code under test.
 */
export function clientTestSandbox(seed: 'empty' | 'demo' = 'empty') {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed });
  }, 60_000);
  afterAll(() => sandbox?.close());
  const running = () => {
    if (!sandbox) throw new Error('the sandbox is not running yet: use it inside beforeAll or a test');
    return sandbox;
  };
  return {
    connection: (): Connection => ({ instanceUrl: running().url, token: running().adminToken }),
    post: async <T = { id: number }>(path: string, body: unknown): Promise<T> => {
      const response = await fetch(`${running().url}/api/v4${path}`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': running().adminToken, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}
