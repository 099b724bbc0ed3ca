import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs `npm start`'s server with `args` until it prints its banner (then stops it) or exits. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--host', '127.0.0.1', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // the banner is complete once the token (sandbox) or the API line (--target) is out
      if (/^(Demo token|API): /m.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start options', () => {
  it('takes the port from PORT and passes --data, --seed and --admin-token to the sandbox', async () => {
    const { stdout } = await run(['--data', dataDir, '--seed', 'empty', '--admin-token', 'glpat-cli-test-token-0001'], { PORT: '0' });
    // PORT=0 asks for a free port, and the banner names the real one
    expect(stdout).toMatch(/^Platform Console: http:\/\/127\.0\.0\.1:(?!0\b)\d+$/m);
    expect(stdout).toContain(`(data: ${dataDir})`);
    expect(stdout).toMatch(/^Demo token: +glpat-cli-test-token-0001 /m);
  }, 30_000);

  it('with --target names the instance and starts no sandbox', async () => {
    const { stdout } = await run(['--port', '0', '--target', 'https://gitlab.example.com']);
    expect(stdout).toMatch(/^API: +http:\/\/127\.0\.0\.1:\d+\/api\/v4 -> https:\/\/gitlab\.example\.com\/api\/v4$/m);
    expect(stdout).not.toContain('Demo token');
  }, 30_000);

  it('refuses a bad port, target or seed with the reason and the usage, exit code 2', async () => {
    for (const [args, reason] of [
      [['--port', 'eighty'], '--port must be a number from 0 to 65535'],
      [['--target', 'gitlab.example.com'], '--target must be an http(s) URL'],
      [['--seed', 'huge'], '--seed must be one of'],
    ] as const) {
      const { code, stderr } = await run([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toContain(reason);
      expect(stderr, args.join(' ')).toContain('Usage: npm start --');
    }
  }, 60_000);
});
