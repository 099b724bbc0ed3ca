import { describe, expect, it } from 'vitest';
import { planPipeline, type JobPlan } from './config.ts';
import { extractCoverage, matchArtifacts, runJob, type ScriptOptions, type Workspace } from './script.ts';
import { seededRandom } from './seeded-random.ts';

function job(yaml: string): JobPlan {
  const result = planPipeline(yaml, { variables: {}, readFile: () => null });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.plan.jobs[0];
}

function workspace(initial: Record<string, string> = {}): Workspace & { files: Map<string, string> } {
  const files = new Map(Object.entries(initial));
  return {
    files,
    read: (path) => files.get(path) ?? null,
    write: (path, text, append) => files.set(path, append ? (files.get(path) ?? '') + text : text),
    list: () => [...files.keys()],
  };
}

const ENV = { CI_PROJECT_DIR: '/builds/group/project', CI_COMMIT_SHA: 'a'.repeat(40), CI_COMMIT_REF_NAME: 'main', NAME: 'world' };

async function run(yaml: string, options: Partial<ScriptOptions> = {}, files: Record<string, string> = {}) {
  const chunks: string[] = [];
  const sleeps: number[] = [];
  const ws = workspace(files);
  const result = await runJob(job(yaml), { ...ENV }, ws, {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    timeScale: 1,
    onLog: (chunk) => chunks.push(chunk),
    now: () => 1_700_000_000_000,
    ...options,
  });
  const log = chunks.join('');
  // The visible text: markers and colours removed, one entry per line.
  const plain = log
    .replace(/\x1b\[0Ksection_(?:start|end):\d+:[a-z_]+\r\x1b\[0K/g, '\n')
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .split('\n')
    .filter((line) => line !== '');
  return { result, log, plain, ws, sleeps };
}

describe('runJob', () => {
  it('echoes with variables expanded, quotes handled, and succeeds', async () => {
    const { result, plain, log } = await run(`j:\n  script:\n    - echo "Hello, $NAME" '$NAME' \${NAME}!\n    - echo   spaced    out\n`);
    expect(result).toEqual({ exitCode: 0, canceled: false, timedOut: false });
    expect(plain).toContain('$ echo "Hello, $NAME" \'$NAME\' ${NAME}!');
    expect(plain).toContain('Hello, world $NAME world!');
    expect(plain).toContain('spaced out');
    expect(plain[plain.length - 1]).toBe('Job succeeded');
    expect(log).toContain('\x1b[32;1m$ echo   spaced    out\x1b[0;m\n');
    expect(log).toContain('\x1b[0Ksection_start:1700000000:step_script\r\x1b[0K');
    expect(log).toContain('\x1b[0Ksection_end:1700000000:step_script\r\x1b[0K');
    expect(log).toContain('\x1b[0K\x1b[32;1mJob succeeded\x1b[0;m\n');
    expect(log.startsWith('\x1b[0KRunning with gitlab-runner')).toBe(true);
  });

  it('writes and appends files, and cats them (missing file: error and exit 1)', async () => {
    const { result, plain, ws } = await run(
      'j:\n  script:\n    - echo one > out.txt\n    - echo two >> ./out.txt\n    - cat out.txt\n    - cat missing.txt\n    - echo never\n',
    );
    expect(ws.files.get('out.txt')).toBe('one\ntwo\n');
    expect(plain).toEqual(expect.arrayContaining(['one', 'two', 'cat: missing.txt: No such file or directory']));
    expect(plain).not.toContain('never');
    expect(result.exitCode).toBe(1);
    expect(plain[plain.length - 1]).toBe('ERROR: Job failed: exit code 1');
  });

  it('reads repository files through the workspace, with absolute project paths', async () => {
    const { plain } = await run('j:\n  script: [cat /builds/group/project/README.md, cat /builds/group/project.tmp/FILE_VAR]\n', {}, {
      'README.md': '# Title',
      '/builds/group/project.tmp/FILE_VAR': 'file variable content',
    });
    expect(plain).toContain('# Title');
    expect(plain).toContain('file variable content');
  });

  it('exit N ends the job with N; exit 0 ends it successfully', async () => {
    expect((await run('j:\n  script: [echo a, exit 3, echo b]\n')).result.exitCode).toBe(3);
    const zero = await run('j:\n  script: [exit 0, false]\n');
    expect(zero.result.exitCode).toBe(0);
  });

  it('true/false, && and || as a shell with errexit', async () => {
    expect((await run('j:\n  script: [false || echo recovered, true && echo fine]\n')).result.exitCode).toBe(0);
    expect((await run('j:\n  script: [false && echo no, echo continues]\n')).plain).toContain('continues');
    expect((await run('j:\n  script: [true && false]\n')).result.exitCode).toBe(1);
  });

  it('sleeps N * timeScale seconds through options.sleep', async () => {
    const { sleeps } = await run('j:\n  script: [sleep 2, sleep 0.5]\n', { timeScale: 0.5 });
    expect(sleeps).toEqual([1000, 250]);
    const none = await run('j:\n  script: [sleep 5]\n', { timeScale: 0 });
    expect(none.sleeps).toEqual([]);
  });

  it('times out on the job timeout, after sleeping only the rest', async () => {
    const { result, sleeps, plain } = await run('j:\n  timeout: 10 minutes\n  script: [sleep 300, sleep 600, echo never]\n', { timeScale: 0.001 });
    expect(result).toEqual({ exitCode: 1, canceled: false, timedOut: true });
    expect(sleeps).toEqual([300, 300]);
    expect(plain).not.toContain('never');
    expect(plain[plain.length - 1]).toBe('ERROR: Job failed: execution took longer than 10m0s seconds');
  });

  it('is canceled through the signal, even while sleeping', async () => {
    const controller = new AbortController();
    // the caller's sleep rejects once its signal is aborted, as the worker's does
    const sleep = () => new Promise<void>((_resolve, reject) => {
      if (controller.signal.aborted) reject(new Error('aborted'));
      controller.signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
    const pending = run('j:\n  script: [echo started, sleep 100, echo never]\n  after_script: [sleep 5, echo after]\n', {
      signal: controller.signal,
      sleep,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const { result, plain } = await pending;
    expect(result.canceled).toBe(true);
    expect(plain).toContain('started');
    expect(plain).not.toContain('never');
    expect(plain).toContain('after'); // after_script runs after a cancel, as runners do since 17.0
    expect(plain[plain.length - 1]).toBe('ERROR: Job failed: canceled');
  });

  it('runs after_script after a failure, in its own shell, without changing the result', async () => {
    const { result, plain } = await run(
      'j:\n  before_script: [export SECRET_STEP=1]\n  script: [exit 2]\n  after_script: [echo "status=$CI_JOB_STATUS step=$SECRET_STEP", exit 5]\n',
    );
    expect(result.exitCode).toBe(2);
    expect(plain).toContain('Running after script...');
    expect(plain).toContain('status=failed step=');
    expect(plain).toContain('WARNING: after_script failed, but job will continue unaffected: exit code 5');
  });

  it('logs and succeeds on any other command, and handles pipes, tee, test, printf and assignments', async () => {
    const { result, plain, ws } = await run(
      'j:\n  script:\n    - npm ci --silent\n    - GREETING=hi\n    - echo "$GREETING there" | tee -a log.txt\n    - test -f log.txt\n    - "[ \\"$GREETING\\" = hi ]"\n    - printf "%s-%s\\n" a b\n',
    );
    expect(result.exitCode).toBe(0);
    expect(plain).toContain('$ npm ci --silent');
    expect(plain).toContain('hi there');
    expect(ws.files.get('log.txt')).toBe('hi there\n');
    expect(plain).toContain('a-b');
  });

  it('reads variables when each command runs, not when the entry is read', async () => {
    const { plain } = await run(
      'j:\n  script:\n    - |\n      export FIRST=1\n      echo "first=$FIRST"\n    - GREETING="hello world"; echo "$GREETING"\n    - false || echo "code $?"\n    - echo "$FIRST" > "$GREETING.txt"; cat "hello world.txt"\n',
    );
    expect(plain).toEqual(expect.arrayContaining(['first=1', 'hello world', 'code 1']));
    expect(plain[plain.indexOf('$ echo "$FIRST" > "$GREETING.txt"; cat "hello world.txt"') + 1]).toBe('1');
  });

  it('masks the values of masked variables in the log', async () => {
    const { plain, log } = await run('j:\n  script: [echo "token=$NAME and world/x"]\n', { masked: ['world', 'world/x'] });
    expect(plain).toContain('token=[MASKED] and [MASKED]');
    expect(log).not.toContain('world');
  });

  it('shows a multi-line entry collapsed and runs each of its lines', async () => {
    const { plain } = await run('j:\n  script:\n    - |\n      echo first\n      echo second\n');
    expect(plain).toContain('$ echo first # collapsed multi-line command');
    expect(plain).toEqual(expect.arrayContaining(['first', 'second']));
  });

  it('reports junit artifacts found or missing in an upload section', async () => {
    const { plain } = await run('j:\n  script: [echo "<testsuites/>" > report.xml]\n  artifacts:\n    reports:\n      junit: [report.xml, "missing/*.xml"]\n');
    expect(plain).toContain('Uploading artifacts for successful job');
    expect(plain).toContain('report.xml: found 1 matching artifact files and directories');
    expect(plain.some((line) => line.startsWith('WARNING: missing/*.xml: no matching files'))).toBe(true);
  });

  it('never throws on odd lines, and any line gives an exit code', async () => {
    const odd = ['echo "unterminated', "echo 'x", 'echo ${', 'exit abc', 'sleep x', '> ', '|||', '&& ||', 'cat', 'echo $((1+1))', '\\', '[ a'];
    const tokens = ['echo', 'cat', 'exit', 'sleep', 'true', 'false', 'test', '[', ']', 'A=1', '$A', '${A}', '"', "'", '>', '>>', '2>&1', '|', '||', '&&', ';', '#', '\\', 'x.txt', '-n', '-f', '0', '3', '$?', '$$', '\n'];
    const random = seededRandom(99);
    for (let i = 0; i < 300; i++) {
      const length = 1 + Math.floor(random() * 7);
      odd.push(Array.from({ length }, () => tokens[Math.floor(random() * tokens.length)]).join(random() < 0.7 ? ' ' : ''));
    }
    for (const line of odd) {
      if (!line.trim()) continue; // a blank script is the planner's error, not the interpreter's
      const { result } = await run(`j:\n  script:\n    - ${JSON.stringify(line)}\n`);
      expect(Number.isInteger(result.exitCode)).toBe(true);
      expect(result.exitCode).toBeGreaterThanOrEqual(0);
      expect(result.exitCode).toBeLessThan(256);
    }
  });
});

describe('matchArtifacts', () => {
  it('matches plain paths and globs', () => {
    const ws = workspace({ 'a.xml': '', 'reports/x.xml': '', 'reports/deep/y.xml': '', 'b.txt': '' });
    expect(matchArtifacts('a.xml', ws)).toEqual(['a.xml']);
    expect(matchArtifacts('reports/*.xml', ws)).toEqual(['reports/x.xml']);
    expect(matchArtifacts('reports/**/*.xml', ws)).toEqual(['reports/deep/y.xml', 'reports/x.xml']);
    expect(matchArtifacts('nothing.xml', ws)).toEqual([]);
  });
});

describe('extractCoverage', () => {
  it('takes the last matching line, its last group, its first number', () => {
    const log = 'Total: 10.5%\nnoise\n\x1b[32;1mTotal: 87.25%\x1b[0;m\nend\n';
    expect(extractCoverage(log, 'Total: (\\d+\\.\\d+)%')).toBe(87.25);
    expect(extractCoverage('Lines: 91%\n', 'Lines: \\d+%')).toBe(91);
    expect(extractCoverage('nothing here\n', 'Total: (\\d+)%')).toBeNull();
    expect(extractCoverage('x\n', '(')).toBeNull();
  });
});
