/**
 * The job interpreter. Jobs never run a shell: each line of before_script, script and
 * after_script is read by a small shell-like interpreter over a workspace (the repository at
 * the pipeline's sha, plus what the job writes). The log is what a runner writes: its
 * preamble, each phase inside section markers, `$ command` lines in green, the outcome last.
 *
 * Builtins: echo [-n] [-e], printf, cat, tee [-a], sleep, exit, true, false, :, test / [ ],
 * export / unset / VAR=value, cd, pwd. Lists with ;, &&, || and newlines; pipes; > and >>.
 * Any other command is logged and succeeds.
 */
import type { JobPlan } from './config.ts';
import { compilePattern } from './expression.ts';
import { formatRunnerDuration } from './duration.ts';
import { isGlob, matchPaths } from './glob.ts';

export interface Workspace {
  read(path: string): string | null;
  write(path: string, text: string, append: boolean): void;
  /** Every file path (for artifact globs); optional. */
  list?(): string[];
}
export interface ScriptOptions {
  sleep(ms: number): Promise<void>;
  timeScale: number;
  signal?: AbortSignal;
  onLog(chunk: string): void;
  /** The clock of section markers, in ms (default Date.now). */
  now?(): number;
  /** The runner that picked the job, for the log's preamble. */
  runner?: { description: string; shortToken: string } | null;
  /** The timeout when the job sets none (the project's, 3600 s on the platform by default). */
  defaultTimeoutSeconds?: number | null;
  /** Ref and sha for the "Getting source" lines. */
  ref?: string;
  sha?: string;
  /** Values of masked variables: the log shows `[MASKED]` in their place (and their URL-encoded form's). */
  masked?: string[];
}
export interface JobRunResult {
  exitCode: number;
  canceled: boolean;
  timedOut: boolean;
}

export const RUNNER_VERSION = '17.5.0 (a1b2c3d4)';
const ESC = '\x1b';
const RESET = `${ESC}[0;m`;
const CLEAR = `${ESC}[0K`;
const GREEN = `${ESC}[32;1m`;
const RED = `${ESC}[31;1m`;
const CYAN = `${ESC}[36;1m`;
const YELLOW = `${ESC}[0;33m`;

class ExitSignal {
  constructor(readonly code: number) {}
}
class StopSignal {
  constructor(readonly reason: 'canceled' | 'timeout') {}
}

interface RunState {
  env: Record<string, string>;
  workspace: Workspace;
  options: ScriptOptions;
  projectDir: string;
  /** Script seconds spent so far (sleep), against the timeout. */
  elapsed: number;
  timeout: number | null;
  out: string[];
}

// ---------------------------------------------------------------------------------------------
// Parsing: a command text into and-or lists of pipelines of simple commands.

/** Literal text, or a variable read when the command runs (so `A=1; echo $A` sees the 1). */
type Piece = string | { name: string };
type Word = { pieces: Piece[]; quoted: boolean };
interface Simple {
  words: Word[];
  redirects: Array<{ append: boolean; target: Piece[] }>;
}
type Pipeline = Simple[];
interface AndOr {
  first: Pipeline;
  rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }>;
}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

function expandWord(pieces: Piece[], env: Record<string, string>): string {
  let out = '';
  for (const piece of pieces) out += typeof piece === 'string' ? piece : (env[piece.name] ?? '');
  return out;
}

/** Parses a script entry into lists; variables are marked where they stand and read when run. */
function parse(text: string): AndOr[] {
  const lists: AndOr[] = [];
  let pipeline: Pipeline = [];
  let current: Simple = { words: [], redirects: [] };
  let list: AndOr | null = null;
  let pendingOp: '&&' | '||' | null = null;
  let redirect: boolean | null = null; // append?
  let word: Piece[] = [];
  let inWord = false;
  let quoted = false;
  let i = 0;
  const n = text.length;

  const add = (piece: Piece) => {
    const last = word[word.length - 1];
    if (typeof piece === 'string' && typeof last === 'string') word[word.length - 1] = last + piece;
    else word.push(piece);
  };
  const endWord = () => {
    if (!inWord) return;
    if (redirect !== null) {
      current.redirects.push({ append: redirect, target: word });
      redirect = null;
    } else current.words.push({ pieces: word, quoted });
    word = [];
    inWord = false;
    quoted = false;
  };
  const endSimple = () => {
    endWord();
    if (current.words.length > 0 || current.redirects.length > 0) pipeline.push(current);
    current = { words: [], redirects: [] };
  };
  const endPipeline = () => {
    endSimple();
    if (pipeline.length === 0) return;
    if (list && pendingOp) list.rest.push({ op: pendingOp, pipeline });
    else {
      list = { first: pipeline, rest: [] };
      lists.push(list);
    }
    pendingOp = null;
    pipeline = [];
  };
  const variableAt = (): Piece => {
    // text[i] === '$'
    const next = text[i + 1];
    if (next === '{') {
      const end = text.indexOf('}', i + 2);
      if (end > 0) {
        const name = text.slice(i + 2, end);
        i = end + 1;
        return { name };
      }
    } else if (next !== undefined && NAME_START.test(next)) {
      let j = i + 1;
      while (j < n && NAME_CHAR.test(text[j])) j += 1;
      const name = text.slice(i + 1, j);
      i = j;
      return { name };
    } else if (next === '?') {
      i += 2;
      return { name: '?' };
    } else if (next === '$') {
      i += 2;
      return '1';
    }
    i += 1;
    return '$';
  };

  while (i < n) {
    const c = text[i];
    if (c === '\n' || c === ';') {
      endPipeline();
      list = null;
      i += 1;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i += 1;
    } else if (c === '#' && !inWord) {
      while (i < n && text[i] !== '\n') i += 1;
    } else if (c === '&' && text[i + 1] === '&') {
      endPipeline();
      pendingOp = '&&';
      i += 2;
    } else if (c === '|' && text[i + 1] === '|') {
      endPipeline();
      pendingOp = '||';
      i += 2;
    } else if (c === '|') {
      endSimple();
      i += 1;
    } else if (c === '>' || ((c === '2' || c === '&') && !inWord && text[i + 1] === '>')) {
      const stream = c === '>' ? '1' : c;
      if (c !== '>') i += 1;
      endWord();
      const append = text[i + 1] === '>';
      i += append ? 2 : 1;
      if (text[i] === '&') {
        // 2>&1, >&2: the streams are one log here
        i += 1;
        while (i < n && /[0-9-]/.test(text[i])) i += 1;
        continue;
      }
      if (stream === '2') {
        // 2> FILE: the builtins' errors go to the log; the file is left alone
        while (i < n && (text[i] === ' ' || text[i] === '\t')) i += 1;
        while (i < n && !/[\s;&|]/.test(text[i])) i += 1;
        continue;
      }
      redirect = append;
    } else if (c === '&') {
      endWord(); // background: run in the foreground here
      i += 1;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end < 0 ? n : end;
      add(text.slice(i + 1, stop));
      inWord = true;
      quoted = true;
      i = stop + 1;
    } else if (c === '"') {
      inWord = true;
      quoted = true;
      i += 1;
      while (i < n && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < n && '"\\$`\n'.includes(text[i + 1])) {
          if (text[i + 1] !== '\n') add(text[i + 1]);
          i += 2;
        } else if (text[i] === '$') add(variableAt());
        else add(text[i++]);
      }
      i += 1;
    } else if (c === '\\') {
      if (i + 1 < n && text[i + 1] !== '\n') {
        add(text[i + 1]);
        inWord = true;
      }
      i += 2;
    } else if (c === '$') {
      add(variableAt());
      inWord = true;
    } else {
      add(c);
      inWord = true;
      i += 1;
    }
  }
  endPipeline();
  return lists;
}

// ---------------------------------------------------------------------------------------------
// Builtins

type Output = { code: number; stdout: string };

/**
 * A path as the workspace knows it: relative to the project directory (`./a`, `a`, and
 * `$CI_PROJECT_DIR/a` are one file); an absolute path elsewhere (a file variable's) stays absolute.
 */
function normalizePath(path: string, state: RunState): string {
  let p = path;
  if (p === state.projectDir || p.startsWith(state.projectDir + '/')) p = p.slice(state.projectDir.length + 1);
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return (p.startsWith('/') ? '/' : '') + parts.join('/');
}

function interpretEscapes(text: string): string {
  return text.replace(/\\(\\|n|t|r|e|033|0?33|x1b|a|b|c|0)/g, (_all, code: string) => {
    switch (code) {
      case '\\': return '\\';
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'a': return '\x07';
      case 'b': return '\b';
      case 'c': return '';
      case '0': return '';
      default: return ESC;
    }
  });
}

function echo(args: string[]): Output {
  let newline = true;
  let escapes = false;
  while (args.length > 0 && /^-[neE]+$/.test(args[0])) {
    const flags = args.shift()!;
    if (flags.includes('n')) newline = false;
    if (flags.includes('e')) escapes = true;
    if (flags.includes('E')) escapes = false;
  }
  const text = args.join(' ');
  return { code: 0, stdout: (escapes ? interpretEscapes(text) : text) + (newline ? '\n' : '') };
}

function printf(args: string[]): Output {
  if (args.length === 0) return { code: 1, stdout: 'printf: usage: printf format [arguments]\n' };
  const [format, ...rest] = args;
  let index = 0;
  const once = () =>
    interpretEscapes(format).replace(/%([sdif%])/g, (_all, kind: string) => {
      if (kind === '%') return '%';
      const value = rest[index++] ?? '';
      return kind === 's' ? value : String(Number.parseFloat(value) || 0);
    });
  let out = once();
  while (index > 0 && index < rest.length) out += once();
  return { code: 0, stdout: out };
}

function testBuiltin(args: string[], state: RunState): number {
  const a = args[0] === '!' ? args.slice(1) : args;
  const negate = a !== args;
  let result: boolean;
  if (a.length === 0) result = false;
  else if (a.length === 1) result = a[0] !== '';
  else if (a.length === 2) {
    const [flag, value] = a;
    const exists = () => state.workspace.read(normalizePath(value, state)) !== null;
    if (flag === '-z') result = value === '';
    else if (flag === '-n') result = value !== '';
    else if (flag === '-f' || flag === '-e' || flag === '-r') result = exists();
    else if (flag === '-s') result = (state.workspace.read(normalizePath(value, state)) ?? '').length > 0;
    else if (flag === '-d') result = normalizePath(value, state) === '' || (state.workspace.list?.() ?? []).some((f) => f.startsWith(normalizePath(value, state) + '/'));
    else return 2;
  } else if (a.length === 3) {
    const [left, op, right] = a;
    const l = Number(left);
    const r = Number(right);
    switch (op) {
      case '=': case '==': result = left === right; break;
      case '!=': result = left !== right; break;
      case '-eq': result = l === r; break;
      case '-ne': result = l !== r; break;
      case '-lt': result = l < r; break;
      case '-le': result = l <= r; break;
      case '-gt': result = l > r; break;
      case '-ge': result = l >= r; break;
      default: return 2;
    }
  } else return 2;
  return result !== negate ? 0 : 1;
}

async function sleepFor(seconds: number, state: RunState): Promise<void> {
  const { options } = state;
  let wanted = seconds;
  let timesOut = false;
  if (state.timeout !== null && state.elapsed + wanted > state.timeout) {
    wanted = Math.max(0, state.timeout - state.elapsed);
    timesOut = true;
  }
  const ms = wanted * 1000 * options.timeScale;
  if (ms > 0) {
    const signal = options.signal;
    if (signal?.aborted) throw new StopSignal('canceled');
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new StopSignal('canceled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      options.sleep(ms).then(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        (error) => {
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted) reject(new StopSignal('canceled'));
          // no signal to stop on (after_script after a cancel): a sleep the caller cut short just ends
          else if (!signal) resolve();
          else reject(error);
        },
      );
    });
  }
  state.elapsed += wanted;
  if (timesOut) throw new StopSignal('timeout');
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const ASSIGNMENT_START = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `NAME=value` where NAME= is written out (the value may be quoted or use variables). */
function isAssignmentWord(word: Word): boolean {
  const first = word.pieces[0];
  return typeof first === 'string' && ASSIGNMENT_START.test(first);
}

async function runSimple(command: Simple, stdin: string, state: RunState): Promise<Output> {
  const words = command.words.map((w) => expandWord(w.pieces, state.env));
  // Leading assignments: VAR=value (alone they set the variable for the rest of the script).
  while (words.length > 0 && ASSIGNMENT.test(words[0]) && isAssignmentWord(command.words[command.words.length - words.length])) {
    const [, name, value] = ASSIGNMENT.exec(words.shift()!)!;
    state.env[name] = value;
  }
  if (words.length === 0) return { code: 0, stdout: '' };
  const [name, ...args] = words;
  switch (name) {
    case 'echo':
      return echo(args);
    case 'printf':
      return printf(args);
    case 'true':
    case ':':
      return { code: 0, stdout: '' };
    case 'false':
      return { code: 1, stdout: '' };
    case 'pwd':
      return { code: 0, stdout: `${state.projectDir}\n` };
    case 'cd':
      return { code: 0, stdout: '' };
    case 'exit': {
      const code = args[0] === undefined ? Number(state.env['?'] ?? 0) : Number.parseInt(args[0], 10);
      throw new ExitSignal(Number.isFinite(code) ? ((code % 256) + 256) % 256 : 2);
    }
    case 'sleep': {
      let seconds = 0;
      for (const arg of args) {
        const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg);
        if (!m) return { code: 1, stdout: `sleep: invalid time interval '${arg}'\n` };
        seconds += Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]];
      }
      if (args.length === 0) return { code: 1, stdout: 'sleep: missing operand\n' };
      await sleepFor(seconds, state);
      return { code: 0, stdout: '' };
    }
    case 'cat': {
      if (args.length === 0) return { code: 0, stdout: stdin };
      let out = '';
      let code = 0;
      for (const arg of args) {
        if (arg === '-') {
          out += stdin;
          continue;
        }
        const content = state.workspace.read(normalizePath(arg, state));
        if (content === null) {
          state.out.push(`cat: ${arg}: No such file or directory\n`);
          code = 1;
        } else out += content;
      }
      return { code, stdout: out };
    }
    case 'tee': {
      const append = args[0] === '-a';
      for (const file of append ? args.slice(1) : args) state.workspace.write(normalizePath(file, state), stdin, append);
      return { code: 0, stdout: stdin };
    }
    case 'export':
      for (const arg of args) {
        const m = ASSIGNMENT.exec(arg);
        if (m) state.env[m[1]] = m[2];
      }
      return { code: 0, stdout: '' };
    case 'unset':
      for (const arg of args) delete state.env[arg];
      return { code: 0, stdout: '' };
    case 'test':
      return { code: testBuiltin(args, state), stdout: '' };
    case '[':
      if (args[args.length - 1] !== ']') return { code: 2, stdout: "[: missing `]'\n" };
      return { code: testBuiltin(args.slice(0, -1), state), stdout: '' };
    default:
      return { code: 0, stdout: '' };
  }
}

async function runPipeline(pipeline: Pipeline, state: RunState): Promise<number> {
  let stdin = '';
  let code = 0;
  for (let k = 0; k < pipeline.length; k += 1) {
    const command = pipeline[k];
    const result = await runSimple(command, stdin, state);
    code = result.code;
    let stdout = result.stdout;
    for (const target of command.redirects) {
      state.workspace.write(normalizePath(expandWord(target.target, state.env), state), stdout, target.append);
      stdout = '';
    }
    if (k === pipeline.length - 1) {
      if (stdout) state.out.push(stdout);
    } else stdin = stdout;
  }
  state.env['?'] = String(code);
  return code;
}

/** Runs one script entry; returns the exit code the shell would stop with, or 0 to go on. */
async function runEntry(text: string, state: RunState): Promise<number> {
  for (const list of parse(text)) {
    if (state.options.signal?.aborted) throw new StopSignal('canceled');
    let code = await runPipeline(list.first, state);
    let lastRan = list.rest.length === 0;
    for (let k = 0; k < list.rest.length; k += 1) {
      const { op, pipeline } = list.rest[k];
      if ((op === '&&' && code === 0) || (op === '||' && code !== 0)) {
        code = await runPipeline(pipeline, state);
        lastRan = k === list.rest.length - 1;
      } else lastRan = false;
    }
    // errexit: a failure stops the script unless it came before a && / || that handled it.
    if (code !== 0 && lastRan) return code;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The job

function sectionStart(name: string, header: string, now: () => number): string {
  return `${CLEAR}section_start:${Math.floor(now() / 1000)}:${name}\r${CLEAR}${CLEAR}${CYAN}${header}${RESET}\n`;
}
function sectionEnd(name: string, now: () => number): string {
  return `${CLEAR}section_end:${Math.floor(now() / 1000)}:${name}\r${CLEAR}`;
}

/** Artifact paths that match a glob (*, **, ?, {a,b}) among the workspace's files, or the path itself. */
export function matchArtifacts(pattern: string, workspace: Workspace): string[] {
  const clean = pattern.replace(/^\.\//, '').replace(/^\/+/, '');
  if (!isGlob(clean)) return workspace.read(clean) !== null ? [clean] : [];
  return matchPaths(clean, workspace.list?.() ?? []);
}

/** Replaces masked values (longest first, and their URL-encoded forms) with [MASKED]. */
function masker(values: string[]): (text: string) => string {
  const secrets = [...new Set(values.flatMap((value) => [value, encodeURIComponent(value)]))]
    .filter((value) => value.length > 0)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[MASKED]');
    return out;
  };
}

/** Interprets a job's scripts in the workspace; the log goes to options.onLog as it is written. */
export async function runJob(job: JobPlan, env: Record<string, string>, workspace: Workspace, options: ScriptOptions): Promise<JobRunResult> {
  const now = options.now ?? Date.now;
  const state: RunState = {
    env: { ...env },
    workspace,
    options,
    projectDir: env.CI_PROJECT_DIR ?? '/builds/project',
    elapsed: 0,
    timeout: job.timeoutSeconds ?? options.defaultTimeoutSeconds ?? null,
    out: [],
  };
  let active = state;
  const mask = masker(options.masked ?? []);
  const flush = () => {
    if (active.out.length > 0) {
      const text = active.out.join('');
      active.out = [];
      options.onLog(mask(text.endsWith('\n') ? text : `${text}\n`));
    }
  };
  const log = (text: string) => {
    flush();
    options.onLog(mask(text));
  };

  const runner = options.runner ?? { description: 'sandbox-runner', shortToken: 'sandbox' };
  log(
    `${CLEAR}Running with gitlab-runner ${RUNNER_VERSION}${RESET}\n` +
      `${CLEAR}  on ${runner.description} ${runner.shortToken}, system ID: s_sandbox${RESET}\n`,
  );
  log(sectionStart('prepare_executor', 'Preparing the "shell" executor', now) + 'Using Shell (bash) executor...\n' + sectionEnd('prepare_executor', now));
  log(sectionStart('prepare_script', 'Preparing environment', now) + 'Running on sandbox...\n' + sectionEnd('prepare_script', now));
  const sha = (options.sha ?? env.CI_COMMIT_SHA ?? '').slice(0, 8);
  const ref = options.ref ?? env.CI_COMMIT_REF_NAME ?? '';
  log(
    sectionStart('get_sources', 'Getting source from Git repository', now) +
      `${GREEN}Fetching changes with git depth set to 20...${RESET}\n` +
      `Initialized empty Git repository in ${state.projectDir}/.git/\n` +
      `${GREEN}Created fresh repository.${RESET}\n` +
      `${GREEN}Checking out ${sha} as detached HEAD (ref is ${ref})...${RESET}\n\n` +
      `${GREEN}Skipping Git submodules setup${RESET}\n` +
      sectionEnd('get_sources', now),
  );

  const runLines = async (lines: string[]): Promise<number> => {
    for (const line of lines) {
      const display = line.includes('\n') ? `${line.split('\n')[0]} # collapsed multi-line command` : line;
      log(`${GREEN}$ ${display}${RESET}\n`);
      const code = await runEntry(line, active);
      flush();
      if (code !== 0) return code;
    }
    return 0;
  };

  let exitCode = 0;
  let stop: StopSignal | null = null;
  log(sectionStart('step_script', 'Executing "step_script" stage of the job script', now));
  try {
    exitCode = await runLines([...job.beforeScript, ...job.script]);
  } catch (error) {
    if (error instanceof ExitSignal) exitCode = error.code;
    else if (error instanceof StopSignal) stop = error;
    else throw error;
  }
  flush();
  log(sectionEnd('step_script', now));

  const canceled = stop?.reason === 'canceled';
  if (job.afterScript.length > 0) {
    log(sectionStart('after_script', 'Running after_script', now) + `${GREEN}Running after script...${RESET}\n`);
    // after_script runs in a shell of its own (what the script exported is gone), within 5 minutes,
    // and also after a cancel (as runners do since 17.0): that cancel no longer interrupts it.
    const status = canceled ? 'canceled' : stop || exitCode !== 0 ? 'failed' : 'success';
    active = {
      ...state,
      env: { ...env, CI_JOB_STATUS: status },
      options: canceled ? { ...options, signal: undefined } : options,
      elapsed: 0,
      timeout: 300,
      out: [],
    };
    let afterCode = 0;
    try {
      afterCode = await runLines(job.afterScript);
    } catch (error) {
      if (error instanceof ExitSignal) afterCode = error.code;
      else if (error instanceof StopSignal && error.reason === 'canceled') {
        flush();
        log(sectionEnd('after_script', now) + `${CLEAR}${RED}ERROR: Job failed: canceled${RESET}\n`);
        return { exitCode: exitCode || 1, canceled: true, timedOut: false };
      } else if (!(error instanceof StopSignal)) throw error;
    }
    flush();
    if (afterCode !== 0) log(`${YELLOW}WARNING: after_script failed, but job will continue unaffected: exit code ${afterCode}${RESET}\n`);
    log(sectionEnd('after_script', now));
  }
  if (canceled) {
    log(`${CLEAR}${RED}ERROR: Job failed: canceled${RESET}\n`);
    return { exitCode: exitCode || 1, canceled: true, timedOut: false };
  }

  const failed = stop !== null || exitCode !== 0;
  if (job.junitPaths.length > 0 || job.artifactPaths.length > 0) {
    const phase = failed ? 'upload_artifacts_on_failure' : 'upload_artifacts_on_success';
    let text = sectionStart(phase, `Uploading artifacts for ${failed ? 'failed' : 'successful'} job`, now);
    if (job.artifactPaths.length > 0) {
      text += `${GREEN}Uploading artifacts...${RESET}\n`;
      text += artifactLines(job.artifactPaths, workspace, state.projectDir);
    }
    if (job.junitPaths.length > 0) {
      text += `${GREEN}Uploading artifacts...${RESET}\n`;
      text += artifactLines(job.junitPaths, workspace, state.projectDir);
    }
    log(text + sectionEnd(phase, now));
  }
  log(sectionStart('cleanup_file_variables', 'Cleaning up project directory and file based variables', now) + sectionEnd('cleanup_file_variables', now));

  if (stop?.reason === 'timeout') {
    log(`${CLEAR}${RED}ERROR: Job failed: execution took longer than ${formatRunnerDuration(state.timeout ?? 0)} seconds${RESET}\n`);
    return { exitCode: exitCode || 1, canceled: false, timedOut: true };
  }
  if (exitCode !== 0) {
    log(`${CLEAR}${RED}ERROR: Job failed: exit code ${exitCode}${RESET}\n`);
    return { exitCode, canceled: false, timedOut: false };
  }
  log(`${CLEAR}${GREEN}Job succeeded${RESET}\n`);
  return { exitCode: 0, canceled: false, timedOut: false };
}

function artifactLines(patterns: string[], workspace: Workspace, projectDir: string): string {
  let text = '';
  let any = false;
  for (const pattern of patterns) {
    const found = matchArtifacts(pattern, workspace);
    if (found.length > 0) {
      any = true;
      text += `${pattern}: found ${found.length} matching artifact files and directories${RESET}\n`;
    } else {
      text += `${YELLOW}WARNING: ${pattern}: no matching files. Ensure that the artifact path is relative to the working directory (${projectDir})${RESET}\n`;
    }
  }
  if (!any) text += `${RED}ERROR: No files to upload${RESET}\n`;
  return text;
}

// ---------------------------------------------------------------------------------------------
// Coverage

const ANSI = /\x1b\[[0-9;]*[A-Za-z]|\x1b\[0K|section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?\r?/g;
const NUMBER = /\d+(?:\.\d+)?/;

/**
 * The coverage of a log, the platform's way: the last line the regex matches, the last group of
 * its last match (or the match), and the first number in that. Null when nothing matches.
 */
export function extractCoverage(log: string, regexSource: string): number | null {
  let pattern;
  try {
    pattern = compilePattern(regexSource);
  } catch {
    return null;
  }
  let end = log.length;
  while (end > 0) {
    const start = log.lastIndexOf('\n', end - 1);
    const raw = log.slice(start + 1, end);
    end = start < 0 ? 0 : start;
    if (raw.length === 0) continue;
    const line = raw.includes('\x1b') || raw.includes('section_') ? raw.replace(ANSI, '') : raw;
    const matcher = pattern.matcher(line);
    let last: string | null = null;
    while (matcher.find()) {
      const groups = matcher.groupCount();
      last = groups > 0 ? (matcher.group(groups) ?? matcher.group()) : matcher.group();
    }
    if (last === null) continue;
    const number = NUMBER.exec(last);
    if (number) return Math.round(Number(number[0]) * 100) / 100;
  }
  return null;
}
