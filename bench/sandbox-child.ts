import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SANDBOX_READY_TIMEOUT_MS = 60_000;

export interface SandboxProcess {
  apiUrl: string;
  adminToken: string;
  /** How long the child took to open and seed the demo instance. */
  startMs: number;
  stop(): Promise<void>;
}

/** bench/sandbox-process.ts in a child process: the load generator and the receiver stay off the server's event loop. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
  // the child runs under the same tsx loader as this process (process.execArgv)
  const child = fork(fileURLToPath(new URL('./sandbox-process.ts', import.meta.url)), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.connected) child.send({ type: 'close' });
    else if (child.exitCode === null) child.kill();
    await exited;
  };
  try {
    const ready = await new Promise<{ apiUrl: string; adminToken: string; startMs: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the sandbox process was not ready within ${SANDBOX_READY_TIMEOUT_MS / 1000} s`)), SANDBOX_READY_TIMEOUT_MS);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code}) before it was ready`)));
      child.on('message', (message: { type: string; apiUrl: string; adminToken: string; startMs: number }) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        resolve(message);
      });
    });
    return { apiUrl: ready.apiUrl, adminToken: ready.adminToken, startMs: ready.startMs, stop };
  } catch (error) {
    child.kill();
    await exited;
    throw error;
  }
}

