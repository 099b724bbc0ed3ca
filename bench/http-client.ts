import http from 'node:http';

/**
 * A keep-alive JSON client for one API origin on plain node:http, so the client's own overhead
 * stays small in the figures. `call` resolves whatever the status; `expectOk` throws unless 2xx.
 */
export function keepAliveClient(apiUrl: string, token: string, { maxSockets, timeoutMs }: { maxSockets: number; timeoutMs: number }) {
  const base = new URL(apiUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const call = (method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = { 'PRIVATE-TOKEN': token, Accept: 'application/json' };
      if (payload !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
      const request = http.request({ method, host: base.hostname, port: base.port, path: `${base.pathname}${path}`, agent, headers, timeout: timeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
  const expectOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await call(method, path, body);
    if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    return (answer.body ? JSON.parse(answer.body) : null) as T;
  };
  return { call, get: (path: string) => call('GET', path), expectOk, close: () => agent.destroy() };
}

export type KeepAliveClient = ReturnType<typeof keepAliveClient>;
