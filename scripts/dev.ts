// `npm run dev`: the sandbox on its own port and Vite with hot reload, proxying /api/v4 to it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { startSandbox } from '../sandbox/server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sandbox = await startSandbox({
  port: Number(process.env.SANDBOX_PORT ?? 3000),
  dataDir: path.resolve(process.env.SANDBOX_DATA ?? path.join(root, '.sandbox-data')),
  seed: process.env.SANDBOX_SEED === 'empty' ? 'empty' : 'demo',
  adminToken: process.env.SANDBOX_ADMIN_TOKEN || undefined,
});
process.env.SANDBOX_URL = sandbox.url;
const vite = await createServer({ root, configFile: path.join(root, 'vite.config.ts'), server: { port: Number(process.env.PORT ?? 5173), host: '127.0.0.1' } });
await vite.listen();
console.log(`Console (hot reload): ${vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'}`);
console.log(`Sandbox API:          ${sandbox.apiUrl}`);
console.log(`Demo token:           ${sandbox.adminToken}   (user 1, root, administrator)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([vite.close(), sandbox.close()]).then(() => process.exit(0));
  });
}
