import { execFile, execFileSync, spawn } from 'node:child_process';

/** A git command that failed: its exit code and what it said on stderr. */
export class GitError extends Error {
  constructor(readonly args: readonly string[], readonly code: number | null, readonly stderr: string) {
    super(`git ${args[0] ?? ''} failed (${code}): ${stderr.trim().slice(0, 500)}`);
  }
}

export interface Identity {
  name: string;
  email: string;
}

export interface GitOptions {
  /** Bytes written to git's standard input. */
  input?: string | Buffer;
  /** Extra environment: a temporary index, author and committer. */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for "no match"). */
  okCodes?: readonly number[];
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

// enough for the largest blob or log page the API serves; larger outputs are refused by git's caller
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * The environment every git call runs in: no system or global configuration, no prompts, no
 * pager, a fixed locale and time zone, and pathspecs taken literally (a file named `*.md` is
 * that file). Nothing of the sandbox process's own GIT_* variables leaks in.
 */
export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    LC_ALL: 'C',
    LANG: 'C',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    ...extra,
  };
}

/** The author or committer of a new commit, dated `when`, for git's environment. */
export function identityEnv(role: 'AUTHOR' | 'COMMITTER', who: Identity, when: Date): Record<string, string> {
  return {
    [`GIT_${role}_NAME`]: who.name,
    [`GIT_${role}_EMAIL`]: who.email,
    [`GIT_${role}_DATE`]: `@${Math.floor(when.getTime() / 1000)} +0000`,
  };
}

const BASE_CONFIG = ['-c', 'core.quotePath=false', '-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false'];

/** Runs `git --git-dir=<repo> <args>` without a shell; resolves with stdout as bytes. */
export function git(repo: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const fullArgs = [`--git-dir=${repo}`, ...BASE_CONFIG, ...args];
  return new Promise((resolve, reject) => {
    if (options.input === undefined) {
      execFile('git', fullArgs, { env: gitEnv(options.env), encoding: 'buffer', maxBuffer: MAX_BUFFER }, (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1) : 0;
        const stderrText = stderr.toString('utf8');
        if (code !== 0 && !options.okCodes?.includes(code)) reject(new GitError(args, code, stderrText || String(error?.message)));
        else resolve({ stdout, stderr: stderrText, code });
      });
      return;
    }
    // stdin input: spawn so large inputs stream instead of sitting in an argument
    const child = spawn('git', fullArgs, { env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BUFFER) child.kill();
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stderrText = Buffer.concat(err).toString('utf8');
      const exit = code ?? -1;
      if (exit !== 0 && !options.okCodes?.includes(exit)) reject(new GitError(args, exit, stderrText));
      else resolve({ stdout: Buffer.concat(out), stderr: stderrText, code: exit });
    });
    child.stdin.on('error', () => {
      // git may exit before reading all input (a failed check); the close handler reports it
    });
    child.stdin.end(options.input);
  });
}

/** git's stdout as text without the final newline. */
export async function gitText(repo: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const { stdout } = await git(repo, args, options);
  return stdout.toString('utf8').replace(/\n$/, '');
}

/** The synchronous form, for the seed and for creating repositories inside a transaction. */
export function gitSync(repo: string, args: readonly string[], options: GitOptions = {}): Buffer {
  try {
    return execFileSync('git', [`--git-dir=${repo}`, ...BASE_CONFIG, ...args], {
      env: gitEnv(options.env),
      input: options.input,
      maxBuffer: MAX_BUFFER,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failure = error as { status?: number; stderr?: Buffer };
    throw new GitError(args, failure.status ?? -1, failure.stderr?.toString('utf8') ?? String(error));
  }
}
