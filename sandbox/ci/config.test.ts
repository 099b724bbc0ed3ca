import { describe, expect, it } from 'vitest';
import { configVariables, planPipeline, triggerConfig, RULES_PREVENTED_MESSAGE, WORKFLOW_FILTERED_MESSAGE, type CiContext, type PlanResult } from './config.ts';
import { seededRandom } from './seeded-random.ts';

function context(variables: Record<string, string> = {}, files: Record<string, string> = {}, inputs?: Record<string, unknown>): CiContext {
  return {
    variables: { CI_PIPELINE_SOURCE: 'push', CI_COMMIT_REF_NAME: 'main', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main', ...variables },
    readFile: (path) => files[path] ?? null,
    inputs,
  };
}

function plan(yaml: string, ctx: CiContext = context()) {
  const result = planPipeline(yaml, ctx);
  if (!result.ok) throw new Error(`unexpected errors: ${result.errors.join('; ')}`);
  return result.plan;
}

function errors(yaml: string, ctx: CiContext = context()): string[] {
  const result: PlanResult = planPipeline(yaml, ctx);
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('planPipeline: structure', () => {
  it('uses the default stages and keeps only the stages that have jobs, in order', () => {
    const p = plan('deploy:\n  stage: deploy\n  script: echo d\nunit:\n  script: echo t\ncompile:\n  stage: build\n  script: [echo a, echo b]\n');
    expect(p.stages).toEqual(['build', 'test', 'deploy']);
    expect(p.jobs.map((j) => [j.name, j.stage, j.stageIndex])).toEqual([
      ['compile', 'build', 0],
      ['unit', 'test', 1],
      ['deploy', 'deploy', 2],
    ]);
    expect(p.jobs[0].script).toEqual(['echo a', 'echo b']);
    expect(p.jobs[1].needs).toBeNull();
    expect(p.jobs[1].when).toBe('on_success');
  });

  it('places .pre and .post first and last whatever the declared stages', () => {
    const p = plan('stages: [one, two]\nlast:\n  stage: .post\n  script: x\nfirst:\n  stage: .pre\n  script: x\nmid:\n  stage: two\n  script: x\n');
    expect(p.stages).toEqual(['.pre', 'two', '.post']);
  });

  it('inherits default before_script, after_script, tags, retry and timeout unless the job sets or refuses them', () => {
    const p = plan(`
default:
  before_script: [echo before]
  after_script: echo after
  tags: [docker]
  retry: 1
  timeout: 1h 30m
a:
  script: echo a
b:
  script: echo b
  tags: [shell]
  inherit:
    default: [retry]
`);
    const [a, b] = p.jobs;
    expect(a.beforeScript).toEqual(['echo before']);
    expect(a.afterScript).toEqual(['echo after']);
    expect(a.tags).toEqual(['docker']);
    expect(a.retry).toEqual({ max: 1, when: ['always'] });
    expect(a.timeoutSeconds).toBe(5400);
    expect(b.beforeScript).toEqual([]);
    expect(b.tags).toEqual(['shell']);
    expect(b.retry.max).toBe(1);
    expect(b.timeoutSeconds).toBeNull();
  });

  it('reads variables (plain and with description), coverage, junit, allow_failure exit codes, retry hash, delayed start_in', () => {
    const p = plan(`
variables:
  GLOBAL: one
  DEPLOY_ENV:
    value: staging
    description: Where to deploy
    options: [staging, production]
test:
  variables: { LOCAL: 2 }
  coverage: '/Total: (\\d+\\.\\d+)%/'
  artifacts:
    reports:
      junit: report.xml
  allow_failure:
    exit_codes: [137, 255]
  retry:
    max: 2
    when: [script_failure]
  script: echo hi
later:
  when: delayed
  start_in: 30 minutes
  script: echo later
oom:
  retry: { max: 1, exit_codes: 137 }
  script: x
`);
    expect(p.jobs[2].retry).toEqual({ max: 1, when: [], exitCodes: [137] });
    expect(p.variables).toEqual({ GLOBAL: 'one', DEPLOY_ENV: 'staging' });
    const [test, later] = p.jobs;
    expect(test.variables).toEqual({ LOCAL: '2' });
    expect(test.coverageRegex).toBe('Total: (\\d+\\.\\d+)%');
    expect(test.junitPaths).toEqual(['report.xml']);
    expect(test.allowFailure).toBe(false);
    expect(test.allowFailureExitCodes).toEqual([137, 255]);
    expect(test.retry).toEqual({ max: 2, when: ['script_failure'] });
    expect(later.when).toBe('delayed');
    expect(later.startInSeconds).toBe(1800);
  });

  it('makes manual jobs allowed to fail by default, but not under rules', () => {
    const p = plan(`
optional:
  when: manual
  script: x
gate:
  rules:
    - when: manual
  script: x
`);
    expect(p.jobs.map((j) => [j.name, j.when, j.allowFailure])).toEqual([
      ['optional', 'manual', true],
      ['gate', 'manual', false],
    ]);
  });

  it('resolves extends (deep merge, several parents, hidden jobs), anchors, merge keys and !reference', () => {
    const p = plan(`
.base: &base
  variables: { A: '1', B: '1' }
  tags: [base]
  script: echo base
.other:
  variables: { B: '2' }
.setup:
  script:
    - echo setup
child:
  extends: [.base, .other]
  variables: { C: '3' }
anchored:
  <<: *base
  script:
    - !reference [.setup, script]
    - echo own
`);
    const child = p.jobs.find((j) => j.name === 'child')!;
    expect(child.variables).toEqual({ A: '1', B: '2', C: '3' });
    expect(child.tags).toEqual(['base']);
    expect(child.script).toEqual(['echo base']);
    const anchored = p.jobs.find((j) => j.name === 'anchored')!;
    expect(anchored.script).toEqual(['echo setup', 'echo own']);
    expect(p.jobs.map((j) => j.name)).not.toContain('.base');
  });

  it('includes local files (string, list, {local}) with the main file winning', () => {
    const files = {
      'ci/build.yml': 'variables: { FROM: included }\nbuild:\n  stage: build\n  script: echo included\n',
      'ci/test.yml': 'include: ci/nested.yml\ntest:\n  script: echo test\n',
      'ci/nested.yml': 'nested:\n  script: echo nested\n',
    };
    const p = plan('include:\n  - ci/build.yml\n  - local: /ci/test.yml\nvariables: { FROM: main }\nbuild:\n  script: echo main\n', context({}, files));
    expect(p.variables.FROM).toBe('main');
    expect(p.jobs.find((j) => j.name === 'build')!.script).toEqual(['echo main']);
    expect(p.jobs.find((j) => j.name === 'build')!.stage).toBe('build');
    expect(p.jobs.map((j) => j.name).sort()).toEqual(['build', 'nested', 'test']);
  });

  it('expands parallel: N and parallel: matrix', () => {
    const p = plan('rspec:\n  parallel: 3\n  script: x\nmatrix:\n  parallel:\n    matrix:\n      - OS: [linux, mac]\n        ARCH: amd64\n  script: x\nafter:\n  stage: deploy\n  needs: [rspec]\n  script: x\n');
    expect(p.jobs.map((j) => j.name)).toEqual(['rspec 1/3', 'rspec 2/3', 'rspec 3/3', 'matrix: [linux, amd64]', 'matrix: [mac, amd64]', 'after']);
    expect(p.jobs[3].variables).toEqual({ OS: 'linux', ARCH: 'amd64' });
    expect(p.jobs[5].needs).toEqual(['rspec 1/3', 'rspec 2/3', 'rspec 3/3']);
  });

  it('interpolates spec:inputs with defaults and given values', () => {
    const yaml = 'spec:\n  inputs:\n    target:\n      default: staging\n    level:\n---\ndeploy:\n  script: echo $[[ inputs.target ]] $[[ inputs.level ]]\n';
    expect(plan(yaml, context({}, {}, { level: '3' })).jobs[0].script).toEqual(['echo staging 3']);
    expect(errors(yaml, context())).toEqual(['`level` input: required value has not been provided']);
  });

  it('checks an input\'s type, options and regex', () => {
    const yaml = (def: string) => `spec:\n  inputs:\n    v:\n${def}\n---\nj:\n  script: echo $[[ inputs.v ]]\n`;
    expect(errors(yaml('      type: number'), context({}, {}, { v: 'abc' }))).toEqual(['`v` input: provided value is not a number']);
    expect(plan(yaml('      type: number'), context({}, {}, { v: 3 })).jobs[0].script).toEqual(['echo 3']);
    expect(errors(yaml('      options: [a, b]'), context({}, {}, { v: 'c' }))).toEqual([
      '`v` input: `c` cannot be used because it is not in the list of allowed options',
    ]);
    expect(errors(yaml('      regex: ^v\\d+$'), context({}, {}, { v: 'x1' }))).toEqual(['`v` input: provided value does not match required RegEx pattern']);
    expect(errors(yaml('      default: a'), context({}, {}, { w: 'x' }))).toEqual(['unknown input arguments: w']);
  });
});

describe('include with inputs', () => {
  const files = { 'templates/deploy.yml': 'spec:\n  inputs:\n    env:\n---\n"deploy-$[[ inputs.env ]]":\n  script: echo $[[ inputs.env ]]\n' };
  it('interpolates each inclusion with its own inputs', () => {
    const p = plan('include:\n  - local: templates/deploy.yml\n    inputs: { env: staging }\n  - local: templates/deploy.yml\n    inputs: { env: production }\n', context({}, files));
    expect(p.jobs.map((j) => [j.name, j.script])).toEqual([
      ['deploy-staging', ['echo staging']],
      ['deploy-production', ['echo production']],
    ]);
  });

  it('names the file whose input is missing', () => {
    expect(errors('include:\n  - local: templates/deploy.yml\nj:\n  script: x\n', context({}, files))).toEqual([
      '`templates/deploy.yml`: `env` input: required value has not been provided',
    ]);
  });
});

describe('trigger jobs', () => {
  it('plan a child pipeline from the trigger\'s local includes', () => {
    const files = { 'child/a.yml': 'a:\n  script: echo a\n', 'child/b.yml': 'b:\n  script: echo b\n' };
    const p = plan('deploy:\n  trigger:\n    include: [child/a.yml, {local: child/b.yml}]\n    strategy: depend\n', context({}, files));
    const trigger = p.jobs[0].trigger!;
    expect(trigger).toMatchObject({ include: ['child/a.yml', 'child/b.yml'], strategy: 'depend' });
    const child = plan(triggerConfig(trigger), context({ CI_PIPELINE_SOURCE: 'parent_pipeline' }, files));
    expect(child.jobs.map((j) => j.name)).toEqual(['a', 'b']);
  });
});

describe('planPipeline: needs', () => {
  it('keeps needs as a DAG across stages, and [] starts at once', () => {
    const p = plan('build:\n  stage: build\n  script: x\nlint:\n  stage: test\n  needs: []\n  script: x\ndeploy:\n  stage: deploy\n  needs: [build, {job: lint}]\n  script: x\n');
    expect(p.jobs.map((j) => j.needs)).toEqual([null, [], ['build', 'lint']]);
  });

  it('refuses unknown needs, needs of a later stage and cycles with the platform words', () => {
    expect(errors('a:\n  needs: [ghost]\n  script: x\n')).toEqual(['a job: undefined need: ghost']);
    expect(errors('a:\n  stage: build\n  needs: [b]\n  script: x\nb:\n  stage: test\n  script: x\n')).toEqual([
      'a job: need b is not defined in current or prior stages',
    ]);
    expect(errors('a:\n  needs: [b]\n  script: x\nb:\n  needs: [a]\n  script: x\n')).toEqual(['The pipeline has circular dependencies']);
  });

  it('drops an optional need that rules left out, and refuses a required one', () => {
    const yaml = (optional: boolean) =>
      `build:\n  stage: build\n  rules:\n    - if: $BUILD\n  script: x\ntest:\n  needs: [{job: build, optional: ${optional}}]\n  script: x\n`;
    expect(plan(yaml(true)).jobs.map((j) => [j.name, j.needs])).toEqual([['test', []]]);
    expect(errors(yaml(false))[0]).toMatch(/^'test' job needs 'build' job, but 'build' does not exist in the pipeline/);
  });
});

describe('planPipeline: rules', () => {
  const yaml = `
variables:
  DEPLOY: "no"
build:
  script: x
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $DEPLOY != "yes"
      variables: { MODE: main }
    - if: $CI_COMMIT_TAG =~ /^v\\d+/
      when: manual
      allow_failure: true
    - when: never
`;
  it('applies the first matching rule with its when, allow_failure and variables', () => {
    const main = plan(yaml);
    expect(main.jobs[0]).toMatchObject({ when: 'on_success', variables: { MODE: 'main' } });
    const tag = plan(yaml, context({ CI_COMMIT_BRANCH: '', CI_COMMIT_TAG: 'v1.2', CI_COMMIT_REF_NAME: 'v1.2' }));
    expect(tag.jobs[0]).toMatchObject({ when: 'manual', allowFailure: true });
  });

  it('gives no jobs and the platform reason when every job is excluded', () => {
    const p = plan(yaml, context({ CI_COMMIT_BRANCH: 'feature' }));
    expect(p.jobs).toEqual([]);
    expect(p.notRunReason).toBe(RULES_PREVENTED_MESSAGE);
  });

  it('applies workflow:rules and workflow:name', () => {
    const w = 'workflow:\n  name: Pipeline for $CI_COMMIT_BRANCH\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\nj:\n  script: x\n';
    expect(plan(w).name).toBe('Pipeline for main');
    const filtered = plan(w, context({ CI_PIPELINE_SOURCE: 'web' }));
    expect(filtered.jobs).toEqual([]);
    expect(filtered.notRunReason).toBe(WORKFLOW_FILTERED_MESSAGE);
  });

  it('applies only/except refs', () => {
    const p = plan('a:\n  only: [main]\n  script: x\nb:\n  except: [main]\n  script: x\nc:\n  only: [tags]\n  script: x\nd:\n  only: [/^ma/]\n  script: x\n');
    expect(p.jobs.map((j) => j.name)).toEqual(['a', 'd']);
  });

  it('applies rules:changes against the pushed paths, and rules:exists against the repository', () => {
    const yaml = 'docs:\n  rules:\n    - changes: ["docs/**/*.md", "{README,CHANGELOG}.md"]\n  script: x\napp:\n  rules:\n    - exists: [package.json]\n  script: x\ngo:\n  rules:\n    - exists: ["**/*.go"]\n  script: x\n';
    const files = { 'package.json': '{}' };
    const names = (changedFiles: string[] | null, listed: string[]) =>
      plan(yaml, { ...context({}, files), changedFiles, listFiles: () => listed }).jobs.map((j) => j.name);
    expect(names(['docs/guide/intro.md'], ['package.json'])).toEqual(['docs', 'app']);
    expect(names(['README.md', 'cmd/main.go'], ['cmd/main.go'])).toEqual(['docs', 'app', 'go']);
    expect(names(['src/index.ts'], [])).toEqual(['app']);
    expect(names(null, [])).toEqual(['docs', 'app']);
  });

  it('reports a bad rules:if expression', () => {
    expect(errors('a:\n  script: x\n  rules:\n    - if: $A ==\n')).toEqual(['jobs:a:rules:rule if invalid expression syntax']);
  });
});

describe('planPipeline: invalid files', () => {
  it.each([
    ['', 'Please provide content of .gitlab-ci.yml'],
    ['just a string', 'Invalid configuration format'],
    ['.hidden:\n  script: x\n', 'jobs config should contain at least one visible job'],
    ['build:\n  script: []\n', "jobs:build script can't be blank"],
    ['build:\n  stage: build\n', 'jobs:build config should implement the script:, run:, or trigger: keyword'],
    ['build:\n  script: x\n  scirpt: y\n  colour: red\n', 'jobs:build config contains unknown keys: scirpt, colour'],
    ['build:\n  stage: nope\n  script: x\n', 'jobs:build chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post'],
    ['build:\n  when: later\n  script: x\n', 'jobs:build when should be one of: on_success, on_failure, always, manual, delayed'],
    ['build:\n  when: delayed\n  script: x\n', "jobs:build start in can't be blank"],
    ['build:\n  coverage: Total\n  script: x\n', 'jobs:build coverage config must be a regular expression'],
    ['build:\n  retry: 5\n  script: x\n', 'jobs:build retry config must be an integer from 0 to 2'],
    ['build:\n  timeout: soon\n  script: x\n', 'jobs:build timeout config should be a duration'],
    ['stages: build\nj:\n  script: x\n', 'stages config should be an array of strings'],
    ['include: ci/missing.yml\nj:\n  script: x\n', 'Local file `ci/missing.yml` does not exist!'],
    ['include: ci/bad.yml\nj:\n  script: x\n', 'Included file `ci/bad.yml` does not have valid YAML syntax!'],
    ['a:\n  extends: .nope\n  script: x\n', 'a: unknown keys in `extends` (.nope)'],
    ['.a:\n  extends: .b\n.b:\n  extends: .a\nc:\n  extends: .a\n  script: x\n', 'c: circular dependency detected in `extends`'],
  ])('%j -> %s', (yaml, message) => {
    const ctx = context({}, { 'ci/bad.yml': 'a: [1,\n' });
    expect(errors(yaml, ctx)).toContain(message);
  });

  it('takes the last of duplicate keys, as the platform\'s YAML parser does', () => {
    expect(plan('a:\n  script: x\na:\n  script: y\n').jobs.map((j) => j.script)).toEqual([['y']]);
  });

  it('reports YAML syntax errors with a line and column', () => {
    expect(errors('a:\n  script: [x,\nb: 1\n')[0]).toMatch(/^\(<unknown>\): .+ at line \d+ column \d+$/);
  });
});

describe('configVariables', () => {
  it('lists every top-level variable, with its description and options when it has them', () => {
    const vars = configVariables('variables:\n  A: one\n  B:\n    value: two\n    description: The B\n    options: [two, three]\nj:\n  script: x\n', context());
    expect(vars).toEqual([
      { key: 'A', value: 'one', description: null, valueOptions: [] },
      { key: 'B', value: 'two', description: 'The B', valueOptions: ['two', 'three'] },
    ]);
  });
});

describe('planPipeline: never throws', () => {
  const base = `
stages: [build, test]
variables: { A: "1" }
.base: &base
  tags: [x]
build:
  <<: *base
  stage: build
  script: [echo $A]
  rules:
    - if: $A == "1"
test:
  extends: .base
  needs: [build]
  script: echo t
  artifacts: { reports: { junit: r.xml } }
`;

  it('answers ok or errors for mutated files, recursive aliases and alias bombs', () => {
    const random = seededRandom(7);
    const pieces = [':', '-', ' ', '\n', '[', ']', '{', '}', '*base', '&x', '!reference [.base, tags]', 'needs: [test]', 'extends: build', '"', "'", 'script:', 'rules:', '  '];
    for (let i = 0; i < 1500; i++) {
      let text = base;
      const edits = 1 + Math.floor(random() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * text.length);
        if (random() < 0.5) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 5));
        else text = text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + text.slice(at);
      }
      const result = planPipeline(text, context());
      if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
    }
    expect(planPipeline('a: &a [*a]\nj:\n  script: x\n', context()).ok).toBe(false);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`), 'j:\n  script: x'].join('\n');
    expect(planPipeline(bomb, context()).ok).toBe(false);
  });
});
